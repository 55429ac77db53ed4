// Prototype: 1-element st::add through pybind11 (bench/python_binding_choice).
#include <pybind11/pybind11.h>
#include <st/core/tensor.h>
#include <st/generated/functions.h>
namespace py = pybind11;
PYBIND11_MODULE(proto_pb, m) {
  py::class_<st::Tensor>(m, "Tensor").def("__add__", [](const st::Tensor& a, const st::Tensor& b) {
    return st::add(a, b);
  });
  m.def("ones1", [] { return st::ones({1}); });
  m.def("add", [](const st::Tensor& a, const st::Tensor& b) { return st::add(a, b); });
}
