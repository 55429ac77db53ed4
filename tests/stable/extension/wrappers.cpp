// One operator per torch::stable wrapper of ops.h: the host calls each one
// and the core's own operator with the same arguments and compares.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace ts = torch::stable;
using torch::headeronly::HeaderOnlyArrayRef;
using torch::headeronly::ScalarType;
using ts::Device;
using ts::Tensor;

Tensor w_empty_like(const Tensor& x) { return ts::empty_like(x); }
Tensor w_fill_(Tensor x, double v) { return ts::fill_(x, v); }
Tensor w_fill_int_(Tensor x, int64_t v) { return ts::fill_(x, ts::Scalar(v)); }
Tensor w_narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  return ts::narrow(x, dim, start, length);
}
Tensor w_new_empty(const Tensor& x, HeaderOnlyArrayRef<int64_t> size,
                   std::optional<ScalarType> dtype) {
  return ts::new_empty(x, size, dtype);
}
Tensor w_new_zeros(const Tensor& x, HeaderOnlyArrayRef<int64_t> size,
                   std::optional<ScalarType> dtype) {
  return ts::new_zeros(x, size, dtype);
}
Tensor w_pad(const Tensor& x, HeaderOnlyArrayRef<int64_t> pad, std::string_view mode,
             double value) {
  return ts::pad(x, pad, std::string(mode), value);
}
Tensor w_amax(const Tensor& x, int64_t dim, bool keepdim) { return ts::amax(x, dim, keepdim); }
Tensor w_amax_dims(const Tensor& x, HeaderOnlyArrayRef<int64_t> dims, bool keepdim) {
  return ts::amax(x, dims, keepdim);
}
Tensor w_transpose(const Tensor& x, int64_t d0, int64_t d1) { return ts::transpose(x, d0, d1); }
Tensor w_zero_(Tensor x) { return ts::zero_(x); }
Tensor w_copy_(Tensor x, const Tensor& src) { return ts::copy_(x, src); }
Tensor w_clone(const Tensor& x) { return ts::clone(x); }
Tensor w_flatten(const Tensor& x, int64_t start, int64_t end) { return ts::flatten(x, start, end); }
Tensor w_unsqueeze(const Tensor& x, int64_t dim) { return ts::unsqueeze(x, dim); }
Tensor w_squeeze(const Tensor& x, int64_t dim) { return ts::squeeze(x, dim); }
Tensor w_select(const Tensor& x, int64_t dim, int64_t index) { return ts::select(x, dim, index); }
Tensor w_matmul(const Tensor& a, const Tensor& b) { return ts::matmul(a, b); }
Tensor w_empty(HeaderOnlyArrayRef<int64_t> size, std::optional<ScalarType> dtype,
               std::optional<Device> device) {
  return ts::empty(size, dtype, std::nullopt, device);
}
Tensor w_reshape(const Tensor& x, HeaderOnlyArrayRef<int64_t> shape) {
  return ts::reshape(x, shape);
}
Tensor w_view(const Tensor& x, HeaderOnlyArrayRef<int64_t> size) { return ts::view(x, size); }
// A view of x's memory made by from_blob (x outlives it: the result is a
// clone).
Tensor w_from_blob(const Tensor& x) {
  const Tensor view =
      ts::from_blob(x.data_ptr(), x.sizes(), x.strides(), x.device(), x.scalar_type(), 0);
  return ts::clone(view);
}
Tensor w_to(const Tensor& x, std::optional<ScalarType> dtype, std::optional<Device> device,
            bool copy) {
  return ts::to(x, dtype, std::nullopt, device, std::nullopt, false, copy);
}
Tensor w_to_device(const Tensor& x, Device device) { return ts::to(x, device); }
Tensor w_contiguous(const Tensor& x) { return ts::contiguous(x); }
Tensor w_sum(const Tensor& x, std::optional<HeaderOnlyArrayRef<int64_t>> dim, bool keepdim,
             std::optional<ScalarType> dtype) {
  return ts::sum(x, dim, keepdim, dtype);
}
Tensor w_sum_out(Tensor out, const Tensor& x, std::optional<HeaderOnlyArrayRef<int64_t>> dim,
                 bool keepdim) {
  return ts::sum_out(out, x, dim, keepdim);
}
Tensor w_subtract(const Tensor& a, const Tensor& b, double alpha) {
  return ts::subtract(a, b, alpha);
}
Tensor w_full(HeaderOnlyArrayRef<int64_t> size, double value, std::optional<ScalarType> dtype) {
  return ts::full(size, value, dtype);
}
Tensor w_full_int(HeaderOnlyArrayRef<int64_t> size, int64_t value) {
  return ts::full(size, ts::Scalar(value), ScalarType::Long);
}
Tensor w_add(const Tensor& a, const Tensor& b, double alpha) { return ts::add(a, b, alpha); }
Tensor w_mul(const Tensor& a, const Tensor& b) { return ts::mul(a, b); }

// parallel_for over [0, n): each index is visited exactly once; returns
// the sum of indices and whether get_num_threads() was positive.
std::tuple<int64_t, bool> w_parallel_for(int64_t n, int64_t grain) {
  std::atomic<int64_t> total{0};
  ts::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) {
    int64_t local = 0;
    for (int64_t i = begin; i < end; ++i) local += i;
    total += local;
  });
  return {total.load(), ts::get_num_threads() > 0};
}

// An exception inside a parallel_for chunk reaches the caller (and never
// crosses the C ABI).
int64_t w_parallel_for_throws(int64_t n) {
  ts::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
    STD_TORCH_CHECK(!(begin <= n - 1 && n - 1 < end), "the chunk holding ", n - 1,
                    " failed on purpose");
  });
  return 0;
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(sdk_test, m) {
  m.def("w_empty_like(Tensor x) -> Tensor");
  m.def("w_fill_(Tensor(a!) x, float v) -> Tensor(a!)");
  m.def("w_fill_int_(Tensor(a!) x, int v) -> Tensor(a!)");
  m.def("w_narrow(Tensor x, int dim, int start, int length) -> Tensor");
  m.def("w_new_empty(Tensor x, int[] size, ScalarType? dtype) -> Tensor");
  m.def("w_new_zeros(Tensor x, int[] size, ScalarType? dtype) -> Tensor");
  m.def("w_pad(Tensor x, int[] pad, str mode, float value) -> Tensor");
  m.def("w_amax(Tensor x, int dim, bool keepdim) -> Tensor");
  m.def("w_amax_dims(Tensor x, int[] dims, bool keepdim) -> Tensor");
  m.def("w_transpose(Tensor x, int d0, int d1) -> Tensor");
  m.def("w_zero_(Tensor(a!) x) -> Tensor(a!)");
  m.def("w_copy_(Tensor(a!) x, Tensor src) -> Tensor(a!)");
  m.def("w_clone(Tensor x) -> Tensor");
  m.def("w_flatten(Tensor x, int start, int end) -> Tensor");
  m.def("w_unsqueeze(Tensor x, int dim) -> Tensor");
  m.def("w_squeeze(Tensor x, int dim) -> Tensor");
  m.def("w_select(Tensor x, int dim, int index) -> Tensor");
  m.def("w_matmul(Tensor a, Tensor b) -> Tensor");
  m.def("w_empty(int[] size, ScalarType? dtype, Device? device) -> Tensor");
  m.def("w_reshape(Tensor x, int[] shape) -> Tensor");
  m.def("w_view(Tensor x, int[] size) -> Tensor");
  m.def("w_from_blob(Tensor x) -> Tensor");
  m.def("w_to(Tensor x, ScalarType? dtype, Device? device, bool copy) -> Tensor");
  m.def("w_to_device(Tensor x, Device device) -> Tensor");
  m.def("w_contiguous(Tensor x) -> Tensor");
  m.def("w_sum(Tensor x, int[]? dim, bool keepdim, ScalarType? dtype) -> Tensor");
  m.def("w_sum_out(Tensor(a!) out, Tensor x, int[]? dim, bool keepdim) -> Tensor(a!)");
  m.def("w_subtract(Tensor a, Tensor b, float alpha) -> Tensor");
  m.def("w_full(int[] size, float value, ScalarType? dtype) -> Tensor");
  m.def("w_full_int(int[] size, int value) -> Tensor");
  m.def("w_add(Tensor a, Tensor b, float alpha) -> Tensor");
  m.def("w_mul(Tensor a, Tensor b) -> Tensor");
  m.def("w_parallel_for(int n, int grain) -> (int, bool)");
  m.def("w_parallel_for_throws(int n) -> int");
}

STABLE_TORCH_LIBRARY_IMPL(sdk_test, CompositeExplicitAutograd, m) {
  m.impl("w_empty_like", TORCH_BOX(&w_empty_like));
  m.impl("w_fill_", TORCH_BOX(&w_fill_));
  m.impl("w_fill_int_", TORCH_BOX(&w_fill_int_));
  m.impl("w_narrow", TORCH_BOX(&w_narrow));
  m.impl("w_new_empty", TORCH_BOX(&w_new_empty));
  m.impl("w_new_zeros", TORCH_BOX(&w_new_zeros));
  m.impl("w_pad", TORCH_BOX(&w_pad));
  m.impl("w_amax", TORCH_BOX(&w_amax));
  m.impl("w_amax_dims", TORCH_BOX(&w_amax_dims));
  m.impl("w_transpose", TORCH_BOX(&w_transpose));
  m.impl("w_zero_", TORCH_BOX(&w_zero_));
  m.impl("w_copy_", TORCH_BOX(&w_copy_));
  m.impl("w_clone", TORCH_BOX(&w_clone));
  m.impl("w_flatten", TORCH_BOX(&w_flatten));
  m.impl("w_unsqueeze", TORCH_BOX(&w_unsqueeze));
  m.impl("w_squeeze", TORCH_BOX(&w_squeeze));
  m.impl("w_select", TORCH_BOX(&w_select));
  m.impl("w_matmul", TORCH_BOX(&w_matmul));
  m.impl("w_empty", TORCH_BOX(&w_empty));
  m.impl("w_reshape", TORCH_BOX(&w_reshape));
  m.impl("w_view", TORCH_BOX(&w_view));
  m.impl("w_from_blob", TORCH_BOX(&w_from_blob));
  m.impl("w_to", TORCH_BOX(&w_to));
  m.impl("w_to_device", TORCH_BOX(&w_to_device));
  m.impl("w_contiguous", TORCH_BOX(&w_contiguous));
  m.impl("w_sum", TORCH_BOX(&w_sum));
  m.impl("w_sum_out", TORCH_BOX(&w_sum_out));
  m.impl("w_subtract", TORCH_BOX(&w_subtract));
  m.impl("w_full", TORCH_BOX(&w_full));
  m.impl("w_full_int", TORCH_BOX(&w_full_int));
  m.impl("w_add", TORCH_BOX(&w_add));
  m.impl("w_mul", TORCH_BOX(&w_mul));
  m.impl("w_parallel_for", TORCH_BOX(&w_parallel_for));
  m.impl("w_parallel_for_throws", TORCH_BOX(&w_parallel_for_throws));
}
