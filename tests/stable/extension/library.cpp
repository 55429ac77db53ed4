// sdk_test: the test extension of the stable C++ SDK. It is built only
// against the SDK headers (stabletorch_add_extension) and loaded by the
// tests in tests/stable. This file opens the namespace; the other files
// add their operators with STABLE_TORCH_LIBRARY_FRAGMENT.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#include <tuple>

namespace {

using torch::headeronly::Layout;
using torch::headeronly::ScalarType;
using torch::stable::Device;
using torch::stable::Tensor;

// Every Tensor method of the 2.10 level, as values the host can check.
std::tuple<int64_t, int64_t, std::vector<int64_t>, std::vector<int64_t>, int64_t, int64_t, bool,
           int64_t, bool, bool, bool, int64_t, int64_t, ScalarType, Device, Layout>
tensor_info(const Tensor& x) {
  return {x.dim(),
          x.numel(),
          std::vector<int64_t>(x.sizes().begin(), x.sizes().end()),
          std::vector<int64_t>(x.strides().begin(), x.strides().end()),
          x.dim() > 0 ? x.size(-1) : -1,
          x.dim() > 0 ? x.stride(0) : -1,
          x.is_contiguous(),
          static_cast<int64_t>(x.get_device()) * 1000 + x.get_device_index(),
          x.is_cpu(),
          x.is_cuda(),
          x.defined(),
          x.storage_offset(),
          static_cast<int64_t>(x.element_size()),
          x.scalar_type(),
          x.device(),
          x.layout()};
}

// Typed data access: the sum of a float tensor through const_data_ptr<float>
// (the dtype check refuses any other dtype), and a write through
// mutable_data_ptr<float> / the untyped pointers.
double float_sum(const Tensor& x) {
  const float* p = x.const_data_ptr<float>();
  double s = 0;
  for (int64_t i = 0; i < x.numel(); ++i) s += p[i];
  STD_TORCH_CHECK(
      x.const_data_ptr() == static_cast<const void*>(p) && x.data_ptr() == x.mutable_data_ptr(),
      "data pointers disagree");
  return s;
}

Tensor float_set_first(Tensor x, double v) {
  x.mutable_data_ptr<float>()[0] = static_cast<float>(v);
  return x;
}

// set_requires_grad: this core has no autograd; false succeeds.
bool no_grad(const Tensor& x) {
  x.set_requires_grad(false);
  return true;
}

bool undefined_tensor_is_undefined() {
  const Tensor t;
  return !t.defined();
}

// Tensor::has_storage (2.14): true for x, false for an undefined tensor.
std::tuple<bool, bool> has_storage(const Tensor& x) {
  return {x.has_storage(), Tensor().has_storage()};
}

// Tag StableIValues (2.12) decoded by the kernel: the next tag that has a
// C code (Tag::inplace and Tag::out have none), wrapping around.
torch::headeronly::Tag next_tag(torch::headeronly::Tag t) {
  using torch::headeronly::Tag;
  if (t == Tag::view_copy) return Tag::core;
  Tag next = static_cast<Tag>(static_cast<int>(t) + 1);
  if (next == Tag::inplace || next == Tag::out) next = static_cast<Tag>(static_cast<int>(next) + 1);
  return next;
}

}  // namespace

STABLE_TORCH_LIBRARY(sdk_test, m) {
  m.def(
      "tensor_info(Tensor x) -> (int, int, int[], int[], int, int, bool, int, bool, bool, "
      "bool, int, int, ScalarType, Device, Layout)");
  m.def("float_sum(Tensor x) -> float");
  m.def("float_set_first(Tensor(a!) x, float v) -> Tensor(a!)");
  m.def("no_grad(Tensor x) -> bool");
  m.def("undefined_tensor_is_undefined() -> bool");
  m.def("has_storage(Tensor x) -> (bool, bool)");
  m.def("next_tag(int t) -> int");
  // Operator tags (2.12) and the Python module of later defs (2.13).
  m.def("tagged(Tensor x) -> Tensor", {at::Tag::pointwise, at::Tag::pt2_compliant_tag});
  m.set_python_module("sdk_test_py.fake", "sdk_test's fake kernels");
  m.def("with_python_module(Tensor x) -> Tensor", {at::Tag::reduction});
}

STABLE_TORCH_LIBRARY_IMPL(sdk_test, CompositeExplicitAutograd, m) {
  m.impl("tensor_info", TORCH_BOX(&tensor_info));
  m.impl("float_sum", TORCH_BOX(&float_sum));
  m.impl("float_set_first", TORCH_BOX(&float_set_first));
  m.impl("no_grad", TORCH_BOX(&no_grad));
  m.impl("undefined_tensor_is_undefined", TORCH_BOX(&undefined_tensor_is_undefined));
  m.impl("has_storage", TORCH_BOX(&has_storage));
  m.impl("next_tag", TORCH_BOX(&next_tag));
}
