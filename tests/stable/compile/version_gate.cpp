// Compiled (never run) by the negative compile tests of tests/stable: with
// TORCH_TARGET_VERSION=2.9 and one CASE_* defined, the use of that 2.10
// API must fail to compile with a message naming TORCH_VERSION_2_10_0;
// with no CASE_* (the positive control) the 2.9 API compiles, and at the
// headers' own level every case compiles. CASE_EXT_* use a stabletorch
// addition: a compile error naming STABLETORCH_EXTENSIONS without that
// macro, fine with it.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>

#include <string>
#include <vector>

using torch::stable::Tensor;

// 2.9 API: always available.
Tensor uses_2_9(const Tensor& x) {
  const Tensor t = torch::stable::transpose(x, 0, 1);
  return torch::stable::narrow(torch::stable::fill_(torch::stable::clone(t), 2.0), 0, 0, 1);
}
int64_t twice(int64_t x) { return 2 * x; }
STABLE_TORCH_LIBRARY(version_gate, m) { m.def("twice(int x) -> int"); }
STABLE_TORCH_LIBRARY_IMPL(version_gate, CPU, m) { m.impl("twice", TORCH_BOX(&twice)); }

#if defined(CASE_RESHAPE)
Tensor f(const Tensor& x) { return torch::stable::reshape(x, {2, 3}); }
#elif defined(CASE_SUM)
Tensor f(const Tensor& x) { return torch::stable::sum(x); }
#elif defined(CASE_MUTABLE_DATA_PTR)
float* f(const Tensor& x) { return x.mutable_data_ptr<float>(); }
#elif defined(CASE_DEVICE_STRING)
torch::stable::Device f() { return torch::stable::Device(std::string("cuda:0")); }
#elif defined(CASE_PARALLEL_FOR)
void f() {
  torch::stable::parallel_for(0, 10, 1, [](int64_t, int64_t) {});
}
#elif defined(CASE_LIST_CONVERSION)
StableIValue f() { return torch::stable::detail::from(std::vector<int64_t>{1, 2}); }
#elif defined(CASE_STRING_CONVERSION)
StableIValue f() { return torch::stable::detail::from(std::string("s")); }
#elif defined(CASE_EXT_ADD)
Tensor f(const Tensor& x) { return torch::stable::add(x, x, 2.0); }
#elif defined(CASE_EXT_MUL)
Tensor f(const Tensor& x) { return torch::stable::mul(x, x); }
#elif defined(CASE_EXT_FILL_SCALAR)
Tensor f(const Tensor& x) { return torch::stable::fill_(x, torch::stable::Scalar(int64_t{3})); }
#elif defined(CASE_EXT_SCALAR_CONVERSION)
StableIValue f() { return torch::stable::detail::from(torch::stable::Scalar(1.5)); }
#elif defined(CASE_EXT_SCALAR_KERNEL)
Tensor g(Tensor x, torch::stable::Scalar) { return x; }
STABLE_TORCH_LIBRARY_FRAGMENT(version_gate, m) { m.def("g(Tensor x, Scalar s) -> Tensor"); }
STABLE_TORCH_LIBRARY_IMPL(version_gate, CPU, m2) { m2.impl("g", TORCH_BOX(&g)); }
#endif
