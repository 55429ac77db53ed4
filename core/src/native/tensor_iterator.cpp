// The elementwise engine; see st/native/tensor_iterator.h.
#include <st/native/tensor_iterator.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/result_type.h>
#include <st/device/device_runtime.h>
#include <st/native/scalar_ops.h>

#include "strided_block.h"

namespace st::native {

namespace {

bool same_shape(IntArrayRef a, IntArrayRef b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Per-operand rows of strides, [operand * ndims + dim]: inline up to four
// operands of eight dims.
using StrideRows = SmallVector<int64_t, 32>;

// Appends t's strides (elements) viewed in the broadcast shape, 0 where it
// is broadcast: one row of `strides`.
void append_broadcast_strides(const Tensor& t, IntArrayRef shape, StrideRows& strides) {
  const IntArrayRef sizes = t.sizes(), steps = t.strides();
  const size_t nd = shape.size(), td = sizes.size();
  const size_t row = strides.size();
  strides.resize(row + nd, 0);
  for (size_t i = 0; i < td; ++i) strides[row + nd - td + i] = sizes[i] == 1 ? 0 : steps[i];
}

// An empty order (the one-element shortcut of build()) means contiguous,
// which is every order's layout for one element.
Tensor empty_in_order(IntArrayRef shape, IntArrayRef order, ScalarType dtype, Device device) {
  if (order.empty()) return st::detail::empty_generic(shape, dtype, device);
  return st::detail::empty_strided_generic(shape, dense_strides_in_order(shape, order), dtype,
                                           device);
}

// Gives a just-resized (hence contiguous, storage large enough) tensor the
// dense strides of `order`: the same elements, another order.
void restride_in_order(const Tensor& t, IntArrayRef shape, IntArrayRef order) {
  if (order.empty()) return;
  t.unsafeGetTensorImpl()->set_sizes_and_strides(shape, dense_strides_in_order(shape, order));
}

}  // namespace

// ---------------------------------------------------------------------------
// TensorIteratorConfig::build
// ---------------------------------------------------------------------------

TensorIterator TensorIteratorConfig::build() {
  TensorIterator it;
  it.name_ = name_;
  compute_shape(it);
  const Device device = compute_device();
  compute_common_dtype(it);
  // One element (the usual scalar-like call, whose cost is this set-up):
  // every dim order gives the same layout and there is nothing to
  // coalesce, so both steps are skipped (an empty order).
  const DimVector order = it.numel_ == 1 ? DimVector() : compute_dim_order(it);
  prepare_outputs(it, order, device);
  prepare_inputs(it);
  coalesce_dims(it, order);
  return it;
}

// The broadcast of the inputs (an in-place output is input 0); a nullary
// kernel (fill_) takes its output's own shape.
void TensorIteratorConfig::compute_shape(TensorIterator& it) const {
  DimVector shape;
  bool first = true;
  for (const Tensor& t : inputs_) {
    ST_CHECK(t.defined(), name_, ": expected a defined tensor as input");
    if (first) {
      shape.assign(t.sizes().begin(), t.sizes().end());
      first = false;
    } else if (!same_shape(shape, t.sizes())) {
      const std::vector<int64_t> broadcast = infer_size(shape, t.sizes());
      shape.assign(broadcast.begin(), broadcast.end());
    }
  }
  if (inputs_.empty() && !outputs_.empty() && outputs_[0].defined()) {
    shape.assign(outputs_[0].sizes().begin(), outputs_[0].sizes().end());
  }
  it.shape_ = std::move(shape);
  // Broadcasting expanded operands can give a shape past int64 elements.
  it.numel_ = checked_numel(it.shape_, name_);
}

// One device for every operand, and one the host can address: the CPU or
// a host-accessible backend (Note [Device runtime contract]). The first
// input that is not a 0-dim CPU tensor decides (0-dim CPU scalars mix with
// anything), else the first defined output, else the CPU.
Device TensorIteratorConfig::compute_device() const {
  std::optional<Device> device;
  for (const Tensor& t : inputs_) {
    if (t.is_cpu() && t.dim() == 0) continue;
    if (!device) {
      device = t.device();
    } else {
      ST_CHECK(t.device() == *device, name_,
               ": expected all tensors to be on the same device, but found at least two "
               "devices, ",
               *device, " and ", t.device());
    }
  }
  if (!device) {
    for (const Tensor& t : outputs_) {
      if (t.defined()) {
        device = t.device();
        break;
      }
    }
  }
  const Device d = device.value_or(Device(DeviceType::CPU));
  ST_CHECK(is_host_accessible(d), name_,
           ": the elementwise engine runs on host memory (the CPU or a host-accessible "
           "backend); got device ",
           d);
  return d;
}

// PyTorch's type promotion over the promoted inputs, unless the op fixes
// the common dtype or turns promotion off (then input 0's dtype).
void TensorIteratorConfig::compute_common_dtype(TensorIterator& it) const {
  ScalarType common = ScalarType::Undefined;
  if (forced_common_) {
    common = *forced_common_;
  } else if (promote_) {
    ResultTypeState state;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (input_promote_[i]) state = update_result_type_state(inputs_[i], state);
    }
    common = result_type(state);
  } else if (!inputs_.empty()) {
    common = inputs_[0].dtype();
  }
  if (int_to_float_ && torch::headeronly::isIntegralType(common, /*includeBool=*/true)) {
    common = default_dtype();
  }
  it.common_dtype_ = common;
}

// The dims fastest-first, voted by the given outputs of the full shape and
// every input: allocated outputs take this layout, and the iteration walks
// memory in it.
DimVector TensorIteratorConfig::compute_dim_order(const TensorIterator& it) const {
  const IntArrayRef shape(it.shape_);
  StrideRows strides;  // one row of the shape's dims per voter
  for (const Tensor& t : outputs_) {
    if (t.defined() && same_shape(t.sizes(), shape)) append_broadcast_strides(t, shape, strides);
  }
  for (const Tensor& t : inputs_) append_broadcast_strides(t, shape, strides);
  return fastest_first_dim_order(shape, strides);
}

// Allocates undefined outputs in `order`; checks given ones (device, safe
// cast, in-place shape, overlap) and resizes out= tensors. An output whose
// dtype is not the kernel's is written through a temporary that finish()
// copies back.
void TensorIteratorConfig::prepare_outputs(TensorIterator& it, IntArrayRef order,
                                           Device device) const {
  const char* op = name_;
  const IntArrayRef shape(it.shape_);
  const ScalarType kernel_out = kernel_out_dtype_.value_or(it.common_dtype_);
  it.kernel_out_dtype_ = kernel_out;
  it.noutputs_ = outputs_.size();
  it.operands_.reserve(outputs_.size() + inputs_.size());
  it.outputs_.reserve(outputs_.size());
  for (const Tensor& given : outputs_) {
    Tensor out = given;
    if (!out.defined()) {
      out = empty_in_order(shape, order, kernel_out, device);
      it.outputs_.push_back(out);
    } else {
      ST_CHECK(out.device() == device, op, ": expected the output on ", device, " but got ",
               out.device());
      if (safe_cast_) {
        ST_CHECK(torch::headeronly::canCast(kernel_out, out.dtype()), "result type ",
                 torch::headeronly::toString(kernel_out),
                 " can't be cast to the desired output type ",
                 torch::headeronly::toString(out.dtype()));
      }
      if (inplace_) {
        ST_CHECK(same_shape(out.sizes(), shape), "output with shape ", shape_str(out.sizes()),
                 " doesn't match the broadcast shape ", shape_str(shape));
      } else if (resize_output(out, shape)) {
        // A resized out= tensor takes the layout the inputs give the
        // result, as an allocated output would (PyTorch restrides it too).
        restride_in_order(out, shape, order);
      }
      if (check_overlap_) {
        assert_no_internal_overlap(out, op);
        for (const Tensor& in : inputs_) assert_no_partial_overlap(out, in, op);
      }
      it.outputs_.push_back(out);
      if (out.dtype() != kernel_out) {
        const size_t index = it.outputs_.size() - 1;
        const cast_to_strided_fn cast =
            index < TensorIterator::kMaxBlockCastOutputs && !aliased_in_another_layout(out)
                ? cast_to_strided(kernel_out, out.dtype())
                : nullptr;
        if (cast != nullptr) {
          it.out_cast_[index] = cast;
          it.any_out_cast_ = true;
        } else {
          out = empty_in_order(shape, order, kernel_out, device);  // finish() copies it back
        }
      }
    }
    it.operands_.push_back(out);
  }
}

// True when an input shares memory with `out` without being the same view
// (an in-place op's self is): the result must then not depend on the order
// the blocks are written, so the output goes through a temporary.
bool TensorIteratorConfig::aliased_in_another_layout(const Tensor& out) const {
  for (const Tensor& in : inputs_) {
    if (!in.has_storage() || !out.has_storage() || !in.is_alias_of(out)) continue;
    const bool same_view = in.const_data_ptr() == out.const_data_ptr() &&
                           same_shape(in.sizes(), out.sizes()) &&
                           same_shape(in.strides(), out.strides());
    if (!same_view) return true;
  }
  return false;
}

// The inputs as the kernel reads them: converted to the common dtype when
// they take part in promotion (or the common dtype is fixed).
void TensorIteratorConfig::prepare_inputs(TensorIterator& it) const {
  const ScalarType common = it.common_dtype_;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Tensor& t = inputs_[i];
    const bool convert = (promote_ && input_promote_[i]) || forced_common_.has_value();
    it.operands_.push_back(convert && t.dtype() != common ? to_dtype(t, common) : t);
  }
}

// The iteration geometry: byte strides in `order`, size-1 dims dropped, and
// adjacent dims merged where every operand steps across them evenly, so a
// contiguous (or uniformly strided) operand set runs as one flat loop.
void TensorIteratorConfig::coalesce_dims(TensorIterator& it, IntArrayRef order) {
  const IntArrayRef shape(it.shape_);
  const size_t nops = it.operands_.size();
  if (order.empty()) {  // one element (or no dims): one step, no strides
    it.iter_shape_.assign(1, 1);
    it.iter_strides_.assign(nops, 0);
    return;
  }
  // Byte strides per operand and dim of the shape, [k * nd + d].
  const size_t nd = shape.size();
  StrideRows bstrides(nops * nd, 0);
  for (size_t k = 0; k < nops; ++k) {
    const Tensor& t = it.operands_[k];
    // An empty iteration walks nothing, and its strides (behind a 0 dim)
    // need not fit in bytes; otherwise each reaches an element, so fits.
    const int64_t item = it.numel_ == 0 ? 0 : static_cast<int64_t>(t.itemsize());
    const IntArrayRef sizes = t.sizes(), steps = t.strides();
    const size_t td = sizes.size();
    for (size_t i = 0; i < td; ++i) {
      bstrides[k * nd + nd - td + i] = sizes[i] == 1 ? 0 : steps[i] * item;
    }
  }
  // Merged dims, fastest first; istr[k * nd + j] is operand k's stride in
  // merged dim j (at most nd of them).
  DimVector ishape;
  StrideRows istr(nops * std::max<size_t>(nd, 1), 0);
  for (int64_t d : order) {
    const int64_t size = shape[d];
    if (size == 1) continue;
    if (!ishape.empty()) {
      const size_t j = ishape.size() - 1;
      bool can = true;
      for (size_t k = 0; k < nops && can; ++k) {
        can = bstrides[k * nd + d] == ishape.back() * istr[k * nd + j];
      }
      if (can) {
        ishape.back() *= size;
        continue;
      }
    }
    const size_t j = ishape.size();
    ishape.push_back(size);
    for (size_t k = 0; k < nops; ++k) istr[k * nd + j] = bstrides[k * nd + d];
  }
  if (ishape.empty()) {
    it.iter_shape_.assign(1, 1);
    it.iter_strides_.assign(nops, 0);
    return;
  }
  // Compact to [k * ndims + j] for the ndims merged dims.
  const size_t ndims = ishape.size();
  it.iter_strides_.resize(nops * ndims);
  for (size_t k = 0; k < nops; ++k) {
    for (size_t j = 0; j < ndims; ++j) it.iter_strides_[k * ndims + j] = istr[k * nd + j];
  }
  it.iter_shape_ = std::move(ishape);
  it.find_crossed_inputs();
}

// Inputs read across the rows (Note [Crossed inputs by tiles]): decided
// once here, as the geometry does not change after build().
void TensorIterator::find_crossed_inputs() {
  ncrossed_ = 0;
  const size_t nops = operands_.size();
  const size_t nd = iter_shape_.size();
  if (nd < 2 || iter_shape_[0] < kCrossedMinRow) return;
  for (size_t k = noutputs_; k < nops && ncrossed_ < kMaxCrossedInputs; ++k) {
    const int64_t along = iter_strides_[k * nd];
    const int64_t across = iter_strides_[k * nd + 1];
    const int64_t along_bytes = along < 0 ? -along : along;
    const int64_t across_bytes = across < 0 ? -across : across;
    if (across_bytes != 0 && across_bytes < along_bytes && along_bytes % kCrossedStrideBytes == 0 &&
        block_copyable(static_cast<size_t>(operands_[k].itemsize()))) {
      crossed_[ncrossed_++] = k;
    }
  }
}

// ---------------------------------------------------------------------------
// Iteration
// ---------------------------------------------------------------------------

namespace {

// The per-call pointer and stride arrays on the stack for the usual operand
// counts (no heap allocation per chunk); larger iterators use the vector.
template <typename T>
class SmallArray {
 public:
  explicit SmallArray(size_t n) {
    if (n > kInline) {
      heap_.resize(n);
      data_ = heap_.data();
    }
  }
  SmallArray(const SmallArray&) = delete;
  SmallArray& operator=(const SmallArray&) = delete;
  T* get() { return data_; }
  T& operator[](size_t i) { return data_[i]; }

 private:
  static constexpr size_t kInline = 16;
  T inline_[kInline];
  std::vector<T> heap_;
  T* data_ = inline_;
};

}  // namespace

void TensorIterator::run_range(const loop2d_t& loop, int64_t begin, int64_t end) const {
  const size_t nops = operands_.size();
  const size_t nd = iter_shape_.size();
  SmallArray<char*> base(nops), ptrs(nops);
  SmallArray<int64_t> inner(nops), outer(nops), idx(nd);
  for (size_t k = 0; k < nops; ++k) {
    base[k] = static_cast<char*>(operands_[k].data_ptr());
    inner[k] = iter_strides_[k * nd];
    outer[k] = nd > 1 ? iter_strides_[k * nd + 1] : 0;
  }
  int64_t rem = begin;
  for (size_t d = 0; d < nd; ++d) {
    idx[d] = rem % iter_shape_[d];
    rem /= iter_shape_[d];
  }
  const int64_t row = iter_shape_[0];
  int64_t pos = begin;
  while (pos < end) {
    for (size_t k = 0; k < nops; ++k) {
      char* p = base[k];
      for (size_t d = 0; d < nd; ++d) p += idx[d] * iter_strides_[k * nd + d];
      ptrs[k] = p;
    }
    // Whole rows from the start of a row go as one 2-d call (up to the end
    // of dim 1 or of the range); a partial row as one row.
    int64_t n = std::min(row - idx[0], end - pos);
    int64_t rows = 1;
    if (idx[0] == 0 && nd > 1 && end - pos >= row) {
      n = row;
      rows = std::min((end - pos) / row, iter_shape_[1] - idx[1]);
    }
    if (ncrossed_ != 0 && rows > 1) {
      run_crossed(loop, ptrs.get(), inner.get(), outer.get(), n, rows);
    } else {
      run_block(loop, ptrs.get(), inner.get(), outer.get(), n, rows);
    }
    pos += n * rows;
    if (n == row && nd > 1) {
      idx[1] += rows;
    } else {
      idx[0] += n;
    }
    for (size_t d = 0; d + 1 < nd; ++d) {
      if (idx[d] == iter_shape_[d]) {
        idx[d] = 0;
        ++idx[d + 1];
      }
    }
  }
}

void TensorIterator::run_block(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                               const int64_t* outer_strides, int64_t n, int64_t rows) const {
  if (any_out_cast_) {
    run_block_cast(loop, ptrs, strides, outer_strides, n, rows);
  } else {
    loop(ptrs, strides, outer_strides, n, rows);
  }
}

// Note [Crossed inputs by tiles]
// The dim order follows the operands' strides, voted (compute_dim_order);
// an input whose strides run the other way (a transpose beside contiguous
// operands, NCHW beside NHWC) is then read a row apart per element, each
// element its own cache line. When that step is a multiple of 4 KiB the
// lines fall in a few cache sets, and each is evicted before the next
// rows come back for the rest of it: mul of a 1024 x 1024 float tensor by
// a transpose took 3.7 ms in one process (a contiguous pair 0.15), 1.06-
// 1.31x PyTorch through the conformance driver, NCHW beside NHWC [8, 64,
// 32, 32] 1.0-1.4x. Those blocks of rows run in tiles of kCrossedTileRows
// rows by kCrossedTileBytes of the widest crossed input's elements: each
// crossed input's tile is first transposed into a stack buffer, reading
// kCrossedTileRows consecutive elements (a cache line of floats) down each
// column and asking for the next line of it, and the loop sees the buffer
// as contiguous rows. Measured (one process, medians of seven): 1024^2
// 3.7 ms -> 0.59, 2048^2 23.5 -> 8.9; through the driver 0.24-0.38x
// PyTorch at 1024^2 and 2048^2, NCHW beside NHWC 0.17-0.18x. Other steps
// keep the row walk: at 768^2 and 1000^2 (steps of 3000 and 4000 bytes)
// the tiles were 2x faster in one process but 1.4-1.7x slower through the
// driver, where the inputs come from farther than the L3 and the row walk's
// constant steps are what the hardware prefetches. Every element is
// computed from the same inputs, only the order of the calls changes (an
// output overlapping an input in another layout goes through a temporary,
// aliased_in_another_layout). Outputs are not transposed: an allocated
// output follows the vote, and a crossed out= is rare.
void TensorIterator::run_crossed(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                                 const int64_t* outer_strides, int64_t n, int64_t rows) const {
  const size_t nops = operands_.size();
  size_t widest = 1;
  for (size_t c = 0; c < ncrossed_; ++c) {
    widest = std::max<size_t>(widest, static_cast<size_t>(operands_[crossed_[c]].itemsize()));
  }
  const int64_t cols = std::max<int64_t>(1, kCrossedTileBytes / static_cast<int64_t>(widest));
  alignas(64) char buffer[kMaxCrossedInputs][kCrossedTileRows * kCrossedTileBytes];
  SmallArray<char*> tile(nops);
  SmallArray<int64_t> tile_strides(nops), tile_outer(nops);
  for (size_t k = 0; k < nops; ++k) {
    tile_strides[k] = strides[k];
    tile_outer[k] = outer_strides[k];
  }
  for (size_t c = 0; c < ncrossed_; ++c) {
    const size_t k = crossed_[c];
    const auto item = static_cast<int64_t>(operands_[k].itemsize());
    tile_strides[k] = item;
    tile_outer[k] = cols * item;
  }
  for (int64_t r0 = 0; r0 < rows; r0 += kCrossedTileRows) {
    const int64_t nr = std::min(kCrossedTileRows, rows - r0);
    for (int64_t c0 = 0; c0 < n; c0 += cols) {
      const int64_t nc = std::min(cols, n - c0);
      for (size_t k = 0; k < nops; ++k) {
        tile[k] = ptrs[k] + r0 * outer_strides[k] + c0 * strides[k];
      }
      // Each crossed input's tile, read down its columns (with the next
      // line of each asked for) into the buffer's rows.
      BlockSteps down;
      down.outer = nc;
      down.inner = nr;
      for (size_t c = 0; c < ncrossed_; ++c) {
        const size_t k = crossed_[c];
        const auto item = static_cast<size_t>(operands_[k].itemsize());
        down.dst_outer = static_cast<int64_t>(item);
        down.dst_inner = cols * static_cast<int64_t>(item);
        down.src_outer = strides[k];
        down.src_inner = outer_strides[k];
        copy_block<true, kAnyInner>(buffer[c], tile[k], down, item);
        tile[k] = buffer[c];
      }
      run_block(loop, tile.get(), tile_strides.get(), tile_outer.get(), nc, nr);
    }
  }
}

// Note [Converting outputs by blocks]
// An output of another dtype than the kernel's (an in-place comparison on a
// float tensor, a float result into a double out=) is not written through a
// whole temporary: each row is run in blocks of kBlockBytes, the kernel
// writing a block into a stack buffer in its own dtype (contiguous), which
// is then cast into the output. The inputs of a block are read before its
// outputs are written, so an in-place op's self (the same view) stays
// correct; any other alias of the output takes the temporary instead.
void TensorIterator::run_block_cast(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                                    const int64_t* outer_strides, int64_t n, int64_t rows) const {
  constexpr int64_t kBlockBytes = 4096;
  const size_t nops = operands_.size();
  const int64_t item = static_cast<int64_t>(torch::headeronly::elementSize(kernel_out_dtype_));
  const int64_t block = kBlockBytes / item;
  alignas(64) char buffer[kMaxBlockCastOutputs][kBlockBytes];
  SmallArray<char*> row_ptrs(nops), data(nops);
  SmallArray<int64_t> block_strides(nops), no_outer(nops);
  for (size_t k = 0; k < nops; ++k) {
    block_strides[k] = strides[k];
    no_outer[k] = 0;
  }
  for (int k = 0; k < kMaxBlockCastOutputs; ++k) {
    if (out_cast_[k] != nullptr) block_strides[static_cast<size_t>(k)] = item;
  }
  for (int64_t j = 0; j < rows; ++j) {
    for (size_t k = 0; k < nops; ++k) row_ptrs[k] = ptrs[k] + j * outer_strides[k];
    for (int64_t done = 0; done < n; done += block) {
      const int64_t m = std::min(block, n - done);
      for (size_t k = 0; k < nops; ++k) data[k] = row_ptrs[k] + done * strides[k];
      for (int k = 0; k < kMaxBlockCastOutputs; ++k) {
        if (out_cast_[k] != nullptr) data[static_cast<size_t>(k)] = buffer[k];
      }
      loop(data.get(), block_strides.get(), no_outer.get(), m, 1);
      for (int k = 0; k < kMaxBlockCastOutputs; ++k) {
        if (out_cast_[k] != nullptr) {
          out_cast_[k](buffer[k], row_ptrs[static_cast<size_t>(k)] + done * strides[k], strides[k],
                       m);
        }
      }
    }
  }
}

namespace {

// A 1-d loop run as a 2-d one: row by row.
loop2d_t rows_of(const loop1d_t& loop, size_t nops) {
  return [&loop, nops](char** data, const int64_t* strides, const int64_t* outer_strides, int64_t n,
                       int64_t rows) {
    if (rows == 1) {
      loop(data, strides, n);
      return;
    }
    SmallArray<char*> row(nops);
    for (int64_t j = 0; j < rows; ++j) {
      for (size_t k = 0; k < nops; ++k) row[k] = data[k] + j * outer_strides[k];
      loop(row.get(), strides, n);
    }
  };
}

}  // namespace

void TensorIterator::for_each_2d(const loop2d_t& loop, int64_t grain_size) const {
  if (numel_ == 0) return;
  if (numel_ <= grain_size) {
    run_range(loop, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain_size, [&](int64_t b, int64_t e) { run_range(loop, b, e); });
}

void TensorIterator::for_each(const loop1d_t& loop, int64_t grain_size) const {
  for_each_2d(rows_of(loop, operands_.size()), grain_size);
}

void TensorIterator::serial_for_each(const loop1d_t& loop) const {
  if (numel_ == 0) return;
  run_range(rows_of(loop, operands_.size()), 0, numel_);
}

void TensorIterator::finish() {
  // An operand that is not the user's output is a temporary of the
  // kernel's dtype (see prepare_outputs).
  for (size_t i = 0; i < noutputs_; ++i) {
    if (operands_[i].unsafeGetTensorImpl() != outputs_[i].unsafeGetTensorImpl()) {
      copy_into(outputs_[i], operands_[i]);
      operands_[i] = outputs_[i];
    }
  }
}

}  // namespace st::native
