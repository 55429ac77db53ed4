// Joining and splitting: cat, stack, split.Tensor, chunk.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/result_type.h>
#include <st/core/wrap_dim.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "host_memory.h"
#include "cpu/vec_kernels.h"

namespace st::native {

namespace {

// PyTorch's legacy rule: 1-D tensors of shape [0] are skipped by cat
// whatever the other tensors' shapes.
bool cat_skipped(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

struct CatPlan {
  std::vector<int64_t> shape;
  int64_t dim = 0;
  ScalarType dtype = ScalarType::Undefined;
  int64_t ref = -1;  // the first tensor that is not skipped
};

CatPlan plan_cat(ArrayRef<Tensor> tensors, int64_t dim, const char* op) {
  ST_CHECK(!tensors.empty(), op, "(): expected a non-empty list of Tensors");
  CatPlan p;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    ST_CHECK(t.defined(), op, "(): expected a defined tensor at position ", i);
    ST_CHECK(t.dim() > 0, op, "(): zero-dimensional tensor (at position ", i,
             ") cannot be concatenated");
    if (t.device() != tensors[0].device() || !t.is_cpu()) {  // the name only when needed
      const std::string arg = "tensors[" + std::to_string(i) + "]";
      check_host_memory(t, op, arg.c_str());
      check_same_device(t, tensors[0].device(), op, arg.c_str());
    }
    if (p.ref < 0 && !cat_skipped(t)) p.ref = static_cast<int64_t>(i);
  }
  p.dtype = result_type(tensors);
  if (p.ref < 0) {
    // Every tensor is a skipped [0]: the result is an empty [0].
    p.shape = {0};
    p.dim = maybe_wrap_dim(dim, 1);
    return p;
  }
  const Tensor& r = tensors[static_cast<size_t>(p.ref)];
  p.dim = maybe_wrap_dim(dim, r.dim());
  p.shape.assign(r.sizes().begin(), r.sizes().end());
  p.shape[static_cast<size_t>(p.dim)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (cat_skipped(t)) continue;
    ST_CHECK(t.dim() == r.dim(), op, "(): Tensors must have same number of dimensions: got ",
             r.dim(), " and ", t.dim());
    for (int64_t d = 0; d < r.dim(); ++d) {
      if (d == p.dim) continue;
      ST_CHECK(t.size(d) == r.size(d), op, "(): Sizes of tensors must match except in dimension ",
               p.dim, ". Expected size ", r.size(d), " but got size ", t.size(d),
               " for tensor number ", i, " in the list.");
    }
    p.shape[static_cast<size_t>(p.dim)] += t.size(p.dim);
  }
  return p;
}

void cat_into(ArrayRef<Tensor> tensors, const CatPlan& p, const Tensor& out) {
  if (out.numel() == 0) return;
  const int64_t dim = p.dim;
  // Fast path: everything contiguous with out's dtype. Each tensor's part
  // of an outer index is one run of bytes, and a thread's range of outer
  // indices takes one row copy per tensor (VecKernels::copy_rows), tensor
  // after tensor: each input is read as one stream. Blocks of 16 KiB of
  // out filled by every tensor in turn ran slower at every block size
  // tried (cat.out of two [16384, 64] floats over dim 1: 418 us against
  // 288; stack over the last dim 744 against 583; Zen 4, one process).
  bool fast = out.is_contiguous();
  for (const Tensor& t : tensors) {
    if (cat_skipped(t)) continue;
    fast = fast && t.is_contiguous() && t.dtype() == out.dtype();
  }
  if (fast) {
    int64_t outer = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= out.size(d);
    const int64_t item = out.itemsize();
    const int64_t out_row = out.numel() / std::max<int64_t>(outer, 1) * item;
    std::vector<const char*> src;
    std::vector<int64_t> bytes;
    for (const Tensor& t : tensors) {
      if (cat_skipped(t) || t.numel() == 0) continue;
      src.push_back(static_cast<const char*>(t.const_data_ptr()));
      bytes.push_back(t.numel() / outer * item);
    }
    char* dst = static_cast<char*>(out.data_ptr());
    const auto copy_rows = cpu::vec_kernels().copy_rows;
    const int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(out_row, 1));
    parallel_for(0, outer, grain, [&](int64_t o0, int64_t o1) {
      char* d = dst + o0 * out_row;
      for (size_t k = 0; k < src.size(); ++k) {
        copy_rows(d, out_row, src[k] + o0 * bytes[k], bytes[k], bytes[k], o1 - o0);
        d += bytes[k];
      }
    });
    return;
  }
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (cat_skipped(t)) continue;
    const int64_t n = t.size(dim);
    if (n > 0) copy_into(st::narrow(out, dim, offset, n), t);
    offset += n;
  }
}

}  // namespace

Tensor cat(ArrayRef<Tensor> tensors, int64_t dim) {
  const CatPlan p = plan_cat(tensors, dim, "torch.cat");
  Tensor out = st::detail::empty_generic(IntArrayRef(p.shape), p.dtype, tensors[0].device());
  cat_into(tensors, p, out);
  return out;
}

Tensor cat_out(ArrayRef<Tensor> tensors, int64_t dim, const Tensor& out) {
  const CatPlan p = plan_cat(tensors, dim, "torch.cat");
  ST_CHECK(torch::headeronly::canCast(p.dtype, out.dtype()),
           "torch.cat(): input types can't be cast to the desired output type ",
           torch::headeronly::toString(out.dtype()));
  for (size_t i = 0; i < tensors.size(); ++i) {
    ST_CHECK(!(out.numel() > 0 && tensors[i].numel() > 0 && out.is_alias_of(tensors[i])),
             "torch.cat(): unsupported operation: the input tensors cannot refer to any of the "
             "output memory locations. Found overlap in input tensor ",
             i);
  }
  resize_output(out, IntArrayRef(p.shape));
  cat_into(tensors, p, out);
  return out;
}

namespace {

std::vector<Tensor> stack_inputs(ArrayRef<Tensor> tensors, int64_t dim) {
  ST_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const Tensor& first = tensors[0];
  const int64_t d = maybe_wrap_dim(dim, first.dim() + 1);
  std::vector<Tensor> parts;
  parts.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const IntArrayRef a = first.sizes(), b = tensors[i].sizes();
    ST_CHECK(a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin()),
             "stack expects each tensor to be equal size, but got ", shape_str(first.sizes()),
             " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ", i);
    parts.push_back(st::unsqueeze(tensors[i], d));
  }
  return parts;
}

}  // namespace

Tensor stack(ArrayRef<Tensor> tensors, int64_t dim) {
  const std::vector<Tensor> parts = stack_inputs(tensors, dim);
  const int64_t d = maybe_wrap_dim(dim, tensors[0].dim() + 1);
  return st::cat(ArrayRef<Tensor>(parts), d);
}

Tensor stack_out(ArrayRef<Tensor> tensors, int64_t dim, const Tensor& out) {
  const std::vector<Tensor> parts = stack_inputs(tensors, dim);
  const int64_t d = maybe_wrap_dim(dim, tensors[0].dim() + 1);
  return st::cat_out(out, ArrayRef<Tensor>(parts), d);
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  ST_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  ST_CHECK(split_size >= 0,
           "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  ST_CHECK(split_size > 0 || size == 0,
           "split_size can only be 0 if dimension size is 0, but got dimension size of ", size);
  int64_t n = 1;
  if (split_size > 0) n = std::max<int64_t>((size + split_size - 1) / split_size, 1);
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t start = i * split_size;
    const int64_t len = std::min(split_size, size - start);
    out.push_back(st::narrow(self, d, start, std::max<int64_t>(len, 0)));
  }
  return out;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  ST_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  ST_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  // ceil(size / chunks), written so that no `chunks` up to INT64_MAX overflows.
  const int64_t split_size = size == 0 ? 0 : (size - 1) / chunks + 1;
  if (split_size == 0 && size == 0) {
    // PyTorch returns `chunks` empty pieces here. The count comes from the
    // caller, not from any data, so it is bounded: a huge one would spin
    // (and allocate) for minutes instead of failing (found by
    // fuzz_call_dispatcher as a timeout; PyTorch has the same hang).
    constexpr int64_t kMaxEmptyPieces = int64_t{1} << 24;
    ST_CHECK(chunks <= kMaxEmptyPieces, "chunk: cannot return ", chunks,
             " empty pieces of an empty dimension (at most ", kMaxEmptyPieces, ")");
    std::vector<Tensor> out;
    out.reserve(static_cast<size_t>(chunks));
    for (int64_t i = 0; i < chunks; ++i) out.push_back(st::narrow(self, d, 0, 0));
    return out;
  }
  return st::split(self, split_size, d);
}

}  // namespace st::native
