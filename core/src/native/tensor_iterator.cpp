// The elementwise engine; see st/native/tensor_iterator.h.
#include <st/native/tensor_iterator.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/result_type.h>
#include <st/core/warning.h>
#include <st/device/device_runtime.h>
#include <st/native/copy.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/scalar_ops.h>
#include <st/native/view_ops.h>

namespace st::native {

void throw_dtype_not_implemented(const char* op, ScalarType t) {
  ST_ERROR("\"", op, "\" not implemented for '", torch::headeronly::toString(t), "'");
}

namespace detail {
void throw_kernel_type_mismatch(const char* op, int operand, size_t expected, size_t got) {
  ST_ERROR(op, ": internal error: kernel operand ", operand, " has element size ", expected,
           " but the tensor's is ", got);
}
}  // namespace detail

std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

namespace {

// The device of a TensorIterator's operands: the first input that is not a
// 0-dim CPU tensor decides (else the first defined output, else the CPU);
// every other such input must agree.
Device common_device(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                     const char* op) {
  std::optional<Device> device;
  for (const Tensor& t : inputs) {
    if (t.is_cpu() && t.dim() == 0) continue;
    if (!device) {
      device = t.device();
    } else {
      ST_CHECK(t.device() == *device, op,
               ": expected all tensors to be on the same device, but found at least two "
               "devices, ", *device, " and ", t.device());
    }
  }
  if (!device) {
    for (const Tensor& t : outputs) {
      if (t.defined()) return t.device();
    }
    return Device(DeviceType::CPU);
  }
  return *device;
}


bool same_shape(IntArrayRef a, IntArrayRef b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Strides (elements) of t viewed in the broadcast shape (0 where broadcast).
std::vector<int64_t> broadcast_strides(const Tensor& t, IntArrayRef shape) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<int64_t> s(nd, 0);
  const int64_t td = t.dim();
  for (int64_t i = 0; i < td; ++i) {
    const int64_t d = nd - td + i;
    s[d] = t.size(i) == 1 ? 0 : t.stride(i);
  }
  return s;
}

// Dims fastest-first, as PyTorch orders them: by the operands' strides,
// skipping broadcast (stride-0) dims; ties keep the original order.
std::vector<int64_t> compute_perm(IntArrayRef shape,
                                  const std::vector<std::vector<int64_t>>& strides) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<int64_t> perm(nd);
  for (int64_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (const auto& s : strides) {
      const int64_t a = s[d0], b = s[d1];
      if (a == 0 || b == 0) continue;
      if (a < b) return -1;
      if (a > b) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  for (int64_t i = 1; i < nd; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

// Dense strides for `shape` laid out in `perm` order (fastest dim first).
std::vector<int64_t> strides_for_perm(IntArrayRef shape, const std::vector<int64_t>& perm) {
  std::vector<int64_t> strides(shape.size(), 1);
  int64_t running = 1;
  for (int64_t d : perm) {
    strides[d] = running;
    running *= std::max<int64_t>(shape[d], 1);
  }
  return strides;
}

Tensor empty_with_perm(IntArrayRef shape, const std::vector<int64_t>& perm, ScalarType dtype,
                       Device device) {
  const std::vector<int64_t> strides = strides_for_perm(shape, perm);
  return st::detail::empty_strided_generic(shape, IntArrayRef(strides), dtype, device);
}

// Gives a just-resized (hence contiguous, storage large enough) tensor the
// dense strides of `perm`: the same elements, another order.
void restride_like_perm(const Tensor& t, IntArrayRef shape, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> strides = strides_for_perm(shape, perm);
  t.unsafeGetTensorImpl()->set_sizes_and_strides(shape, IntArrayRef(strides));
}

}  // namespace

std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  const size_t na = a.size(), nb = b.size();
  const size_t n = std::max(na, nb);
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t ia = static_cast<int64_t>(i) - static_cast<int64_t>(n - na);
    const int64_t ib = static_cast<int64_t>(i) - static_cast<int64_t>(n - nb);
    const int64_t sa = ia >= 0 ? a[ia] : 1;
    const int64_t sb = ib >= 0 ? b[ib] : 1;
    ST_CHECK(sa == sb || sa == 1 || sb == 1, "The size of tensor a (", sa,
             ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = scalar_to_tensor(s, s.type());
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype) {
  Tensor t = st::detail::empty_generic({}, dtype, Device(DeviceType::CPU));
  dispatch_dtype<kEverything>(dtype, "scalar_tensor", [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(t.data_ptr()) = scalar_as<T>(s);
  });
  return t;
}

void resize_impl(const Tensor& t, IntArrayRef shape) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  // Sized and checked before anything changes, so a shape whose bytes do
  // not fit leaves the tensor as it was.
  const int64_t numel = checked_numel(shape, "resize");
  const size_t needed =
      numel == 0 ? 0
                 : checked_nbytes(checked_add(impl->storage_offset(), numel, "resize",
                                              "storage offset + number of elements"),
                                  impl->itemsize(), "resize");
  if (needed > impl->storage().nbytes()) {
    impl->storage().unsafeGetStorageImpl()->resize(needed);
  }
  impl->set_sizes_contiguous(shape);
}

bool resize_output(const Tensor& out, IntArrayRef shape) {
  if (same_shape(out.sizes(), shape)) return false;
  if (out.numel() != 0) {
    ST_WARN("An output with one or more elements was resized since it had shape ",
            shape_str(out.sizes()), ", which does not match the required output shape ",
            shape_str(shape),
            ". This behavior is deprecated, and in a future PyTorch release outputs will not "
            "be resized unless they have zero elements. You can explicitly reuse an out tensor "
            "t by resizing it, inplace, to zero elements with t.resize_(0).");
  }
  resize_impl(out, shape);
  return true;
}

bool has_internal_overlap(const Tensor& t) {
  if (t.is_non_overlapping_and_dense()) return false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) return true;
  }
  return false;
}

void assert_no_internal_overlap(const Tensor& t, const char* op) {
  ST_CHECK(!has_internal_overlap(t), op,
           ": unsupported operation: more than one element of the written-to tensor refers "
           "to a single memory location. Please clone() the tensor before performing the "
           "operation.");
}

void assert_no_partial_overlap(const Tensor& a, const Tensor& b, const char* op) {
  if (!a.defined() || !b.defined() || a.numel() == 0 || b.numel() == 0) return;
  if (!a.has_storage() || !b.has_storage() || !a.is_alias_of(b)) return;
  if (!a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense()) return;
  const char* a0 = static_cast<const char*>(a.const_data_ptr());
  const char* b0 = static_cast<const char*>(b.const_data_ptr());
  const char* a1 = a0 + a.nbytes();
  const char* b1 = b0 + b.nbytes();
  if (a0 == b0 && a1 == b1) {
    return;  // the same memory range: full overlap is allowed, as in PyTorch
  }
  ST_CHECK(a1 <= b0 || b1 <= a0, op,
           ": unsupported operation: some elements of the input tensor and the written-to "
           "tensor refer to a single memory location. Please clone() the tensor before "
           "performing the operation.");
}

std::vector<int64_t> permuted_dense_strides(IntArrayRef shape,
                                            const std::vector<std::vector<int64_t>>& strides) {
  return strides_for_perm(shape, compute_perm(shape, strides));
}

bool resize_output_like(const Tensor& out, const Tensor& result) {
  if (!resize_output(out, result.sizes())) return false;
  if (result.is_non_overlapping_and_dense()) {
    out.unsafeGetTensorImpl()->set_sizes_and_strides(result.sizes(), result.strides());
  }
  return true;
}

Tensor empty_preserving(const Tensor& like, ScalarType dtype) {
  if (like.is_contiguous()) {
    return st::detail::empty_generic(like.sizes(), dtype, like.device());
  }
  if (like.is_non_overlapping_and_dense()) {
    return st::detail::empty_strided_generic(like.sizes(), like.strides(), dtype, like.device());
  }
  // Overlapping or with gaps: dense, in the order of like's strides.
  const std::vector<int64_t> own(like.strides().begin(), like.strides().end());
  const std::vector<int64_t> strides = permuted_dense_strides(like.sizes(), {own});
  return st::detail::empty_strided_generic(like.sizes(), IntArrayRef(strides), dtype,
                                           like.device());
}

Tensor to_dtype(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = empty_preserving(t, dtype);
  copy_into(out, t);
  if (t.unsafeGetTensorImpl()->is_wrapped_number()) {
    out.unsafeGetTensorImpl()->set_wrapped_number(true);
  }
  return out;
}

namespace {

template <typename To>
void cast_loop(TensorIterator& iter, ScalarType from) {
  dispatch_dtype<kEverything>(from, "copy_", [&](auto tag) {
    using From = typename decltype(tag)::type;
    cpu_kernel(iter, [](From v) -> To { return convert<To>(v); });
  });
}

// Casts where one side is an 8-bit floating type: through float, as
// PyTorch converts them.
void float8_cast_loop(TensorIterator& iter, ScalarType to, ScalarType from) {
  if (is_float8(to) && is_float8(from)) {
    dispatch_float8(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_float8(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return To(static_cast<float>(v)); });
      });
    });
  } else if (is_float8(to)) {
    dispatch_float8(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_dtype<kEverything>(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return To(convert<float>(v)); });
      });
    });
  } else {
    dispatch_dtype<kEverything>(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_float8(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return convert<To>(static_cast<float>(v)); });
      });
    });
  }
}

}  // namespace

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  Tensor s = src;
  if (!same_shape(src.sizes(), dst.sizes())) {
    s = native::expand(src, dst.sizes());
  }
  if (s.dtype() == dst.dtype()) {
    native::copy_same_dtype_(dst, s);
    return;
  }
  if (s.device() != dst.device()) {
    // Across host-accessible devices: move first, then convert on dst's
    // device (the iterator keeps its operands on one device).
    Tensor moved = st::detail::empty_generic(s.sizes(), s.dtype(), dst.device());
    native::copy_same_dtype_(moved, s);
    s = moved;
  }
  TensorIterator iter = TensorIteratorConfig()
                            .name("copy_")
                            .add_output(dst)
                            .add_input(s, false)
                            .promote_inputs_to_common_dtype(false)
                            .enforce_safe_casting_to_output(false)
                            .kernel_output_dtype(dst.dtype())
                            .is_inplace(true)
                            .build();
  if (is_float8(dst.dtype()) || is_float8(s.dtype())) {
    float8_cast_loop(iter, dst.dtype(), s.dtype());
    return;
  }
  dispatch_dtype<kEverything>(dst.dtype(), "copy_", [&](auto tag) {
    using To = typename decltype(tag)::type;
    cast_loop<To>(iter, s.dtype());
  });
}

// ---------------------------------------------------------------------------
// TensorIteratorConfig::build
// ---------------------------------------------------------------------------

TensorIterator TensorIteratorConfig::build() {
  TensorIterator it;
  it.name_ = name_;
  const char* op = name_;

  // Shape: broadcast of the inputs (an in-place output is input 0).
  std::vector<int64_t> shape;
  bool first = true;
  for (const Tensor& t : inputs_) {
    ST_CHECK(t.defined(), op, ": expected a defined tensor as input");
    if (first) {
      shape.assign(t.sizes().begin(), t.sizes().end());
      first = false;
    } else {
      shape = infer_size(IntArrayRef(shape), t.sizes());
    }
  }
  if (inputs_.empty() && !outputs_.empty() && outputs_[0].defined()) {
    // A nullary kernel (fill_): the output's own shape.
    shape.assign(outputs_[0].sizes().begin(), outputs_[0].sizes().end());
  }
  it.shape_ = shape;
  // Broadcasting expanded operands can give a shape past int64 elements.
  it.numel_ = checked_numel(IntArrayRef(shape), op);

  // Device: one device for every operand (0-dim CPU scalars mix with
  // anything), and one the host can address: the CPU or a host-accessible
  // backend (Note [Device runtime contract]).
  const Device device = common_device(inputs_, outputs_, op);
  ST_CHECK(is_host_accessible(device), op,
           ": the elementwise engine runs on host memory (the CPU or a host-accessible "
           "backend); got device ", device);

  // Common dtype.
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
  const ScalarType kernel_out = kernel_out_dtype_.value_or(common);

  // Strides of the inputs in the broadcast shape, for the dim order.
  // (Vectors are reserved to their final sizes: growing them one push at
  // a time was a third of a 1-element op's allocations.)
  std::vector<std::vector<int64_t>> order_strides;
  order_strides.reserve(outputs_.size() + inputs_.size());
  for (const Tensor& t : outputs_) {
    if (t.defined() && same_shape(t.sizes(), IntArrayRef(shape))) {
      order_strides.push_back(broadcast_strides(t, IntArrayRef(shape)));
    }
  }
  for (const Tensor& t : inputs_) order_strides.push_back(broadcast_strides(t, IntArrayRef(shape)));
  const std::vector<int64_t> perm = compute_perm(IntArrayRef(shape), order_strides);

  // Outputs.
  it.noutputs_ = outputs_.size();
  it.operands_.reserve(outputs_.size() + inputs_.size());
  it.outputs_.reserve(outputs_.size());
  it.needs_copy_back_.reserve(outputs_.size());
  for (const Tensor& given : outputs_) {
    Tensor out = given;
    bool copy_back = false;
    if (!out.defined()) {
      out = empty_with_perm(IntArrayRef(shape), perm, kernel_out, device);
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
        ST_CHECK(same_shape(out.sizes(), IntArrayRef(shape)), "output with shape ",
                 shape_str(out.sizes()), " doesn't match the broadcast shape ",
                 shape_str(IntArrayRef(shape)));
      } else if (resize_output(out, IntArrayRef(shape))) {
        // A resized out= tensor takes the layout the inputs give the
        // result, as an allocated output would (PyTorch restrides it too).
        restride_like_perm(out, IntArrayRef(shape), perm);
      }
      if (check_overlap_) {
        assert_no_internal_overlap(out, op);
        for (size_t i = 0; i < inputs_.size(); ++i) {
          assert_no_partial_overlap(out, inputs_[i], op);
        }
      }
      it.outputs_.push_back(out);
      if (out.dtype() != kernel_out) {
        out = empty_with_perm(IntArrayRef(shape), perm, kernel_out, device);
        copy_back = true;
      }
    }
    it.operands_.push_back(out);
    it.needs_copy_back_.push_back(copy_back);
  }

  // Inputs, converted to the common dtype.
  for (size_t i = 0; i < inputs_.size(); ++i) {
    Tensor t = inputs_[i];
    if (promote_ && input_promote_[i] && t.dtype() != common) {
      t = to_dtype(t, common);
    } else if (forced_common_ && t.dtype() != common) {
      t = to_dtype(t, common);
    }
    it.operands_.push_back(t);
  }

  // Geometry: byte strides in perm order, then coalesce.
  const size_t nops = it.operands_.size();
  std::vector<std::vector<int64_t>> bstrides(nops);
  for (size_t k = 0; k < nops; ++k) {
    const Tensor& t = it.operands_[k];
    std::vector<int64_t> s = broadcast_strides(t, IntArrayRef(shape));
    // An empty iteration walks nothing, and its strides (behind a 0 dim)
    // need not fit in bytes; otherwise each reaches an element, so fits.
    const int64_t item = it.numel_ == 0 ? 0 : static_cast<int64_t>(t.itemsize());
    for (int64_t& v : s) v *= item;
    bstrides[k] = std::move(s);
  }
  std::vector<int64_t> ishape;
  ishape.reserve(perm.size() + 1);
  std::vector<std::vector<int64_t>> istr(nops);
  for (auto& v : istr) v.reserve(perm.size() + 1);
  for (int64_t d : perm) {
    const int64_t size = shape[d];
    if (size == 1) continue;
    if (!ishape.empty()) {
      bool can = true;
      for (size_t k = 0; k < nops && can; ++k) {
        can = bstrides[k][d] == ishape.back() * istr[k].back();
      }
      if (can) {
        ishape.back() *= size;
        continue;
      }
    }
    ishape.push_back(size);
    for (size_t k = 0; k < nops; ++k) istr[k].push_back(bstrides[k][d]);
  }
  if (ishape.empty()) {
    ishape.push_back(1);
    for (size_t k = 0; k < nops; ++k) istr[k].push_back(0);
  }
  it.iter_shape_ = std::move(ishape);
  it.iter_strides_ = std::move(istr);
  return it;
}

// ---------------------------------------------------------------------------
// Iteration
// ---------------------------------------------------------------------------

void TensorIterator::run_range(const loop1d_t& loop, int64_t begin, int64_t end) const {
  const size_t nops = operands_.size();
  const size_t nd = iter_shape_.size();
  // The per-call state lives on the stack for the usual sizes (no heap
  // allocation per chunk); larger iterators fall back to vectors.
  constexpr size_t kInline = 8;
  char* base_buf[kInline];
  char* ptrs_buf[kInline];
  int64_t inner_buf[kInline];
  int64_t idx_buf[2 * kInline];
  std::vector<char*> base_vec, ptrs_vec;
  std::vector<int64_t> inner_vec, idx_vec;
  char** base = base_buf;
  char** ptrs = ptrs_buf;
  int64_t* inner = inner_buf;
  int64_t* idx = idx_buf;
  if (nops > kInline) {
    base_vec.resize(nops);
    ptrs_vec.resize(nops);
    inner_vec.resize(nops);
    base = base_vec.data();
    ptrs = ptrs_vec.data();
    inner = inner_vec.data();
  }
  if (nd > 2 * kInline) {
    idx_vec.resize(nd);
    idx = idx_vec.data();
  }
  for (size_t k = 0; k < nops; ++k) {
    base[k] = static_cast<char*>(operands_[k].data_ptr());
    inner[k] = iter_strides_[k][0];
  }
  int64_t rem = begin;
  for (size_t d = 0; d < nd; ++d) {
    idx[d] = rem % iter_shape_[d];
    rem /= iter_shape_[d];
  }
  int64_t pos = begin;
  while (pos < end) {
    for (size_t k = 0; k < nops; ++k) {
      char* p = base[k];
      for (size_t d = 0; d < nd; ++d) p += idx[d] * iter_strides_[k][d];
      ptrs[k] = p;
    }
    const int64_t n = std::min(iter_shape_[0] - idx[0], end - pos);
    loop(ptrs, inner, n);
    pos += n;
    idx[0] += n;
    for (size_t d = 0; d + 1 < nd && idx[d] == iter_shape_[d]; ++d) {
      idx[d] = 0;
      ++idx[d + 1];
    }
  }
}

void TensorIterator::for_each(const loop1d_t& loop, int64_t grain_size) const {
  if (numel_ == 0) return;
  if (numel_ <= grain_size) {
    run_range(loop, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain_size,
               [&](int64_t b, int64_t e) { run_range(loop, b, e); });
}

void TensorIterator::serial_for_each(const loop1d_t& loop) const {
  if (numel_ == 0) return;
  run_range(loop, 0, numel_);
}

void TensorIterator::finish() {
  for (size_t i = 0; i < noutputs_; ++i) {
    if (needs_copy_back_[i]) {
      copy_into(outputs_[i], operands_[i]);
      operands_[i] = outputs_[i];
      needs_copy_back_[i] = false;
    }
  }
}

}  // namespace st::native
