// Prototype: 1-element st::add through nanobind (bench/python_binding_choice).
#include <nanobind/nanobind.h>
#include <st/core/tensor.h>
#include <st/generated/functions.h>
namespace nb = nanobind;
NB_MODULE(proto_nb, m) {
  nb::class_<st::Tensor>(m, "Tensor").def("__add__", [](const st::Tensor& a, const st::Tensor& b) {
    return st::add(a, b);
  });
  m.def("ones1", [] { return st::ones({1}); });
  m.def("add", [](const st::Tensor& a, const st::Tensor& b) { return st::add(a, b); });
}
