// Round trips of every StableIValue conversion: the host encodes a value
// with torch::stable::detail::from, the core decodes it by the schema and
// re-encodes it for the kernel, the kernel's to<T> reads it, transforms it
// (so an untouched slot cannot pass), and its result travels back the
// same way to the host's to<T>.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace ts = torch::stable;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;
using ts::Device;
using ts::Scalar;
using ts::Tensor;

int64_t echo_int(int64_t x) { return -x; }
double echo_float(double x) { return x * 2; }
bool echo_bool(bool x) { return !x; }
std::string echo_str(const std::string& s) { return "«" + s + "»"; }
ScalarType echo_dtype(ScalarType t) {
  return t == ScalarType::Float ? ScalarType::Double : ScalarType::Float;
}
Layout echo_layout(Layout l) { return l; }
MemoryFormat echo_memory_format(MemoryFormat m) {
  return m == MemoryFormat::Contiguous ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
}
Device echo_device(Device d) { return Device(d.type(), d.index() + 1); }
Scalar echo_scalar(Scalar s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool:
      return Scalar(!s.toBool());
    case Scalar::Kind::Int:
      return Scalar(s.toLong() + 1);
    case Scalar::Kind::Double:
      return Scalar(s.toDouble() / 2);
    case Scalar::Kind::Complex: {
      const auto c = s.toComplexDouble();
      return Scalar(torch::headeronly::complex<double>(c.imag(), c.real()));
    }
  }
  return s;
}
// A new tensor (x + x) so the handle that comes back is not the one sent.
Tensor echo_tensor(const Tensor& x) { return ts::add(x, x); }
std::optional<Tensor> echo_opt_tensor(const std::optional<Tensor>& x) {
  if (!x) return std::nullopt;
  return ts::add(*x, *x);
}
std::optional<int64_t> echo_opt_int(std::optional<int64_t> x) {
  return x ? std::optional<int64_t>(-*x) : std::nullopt;
}
std::optional<double> echo_opt_float(std::optional<double> x) {
  return x ? std::optional<double>(*x * 2) : std::nullopt;
}
std::optional<std::string> echo_opt_str(std::optional<std::string_view> s) {
  return s ? std::optional<std::string>("«" + std::string(*s) + "»") : std::nullopt;
}
std::optional<ScalarType> echo_opt_dtype(std::optional<ScalarType> t) {
  return t ? std::optional<ScalarType>(echo_dtype(*t)) : std::nullopt;
}
std::optional<Device> echo_opt_device(std::optional<Device> d) {
  return d ? std::optional<Device>(echo_device(*d)) : std::nullopt;
}
template <typename T>
std::vector<T> reversed(std::vector<T> v) {
  std::reverse(v.begin(), v.end());
  return v;
}
std::vector<int64_t> echo_int_list(std::vector<int64_t> v) { return reversed(std::move(v)); }
std::vector<double> echo_float_list(const std::vector<double>& v) { return reversed(v); }
std::vector<bool> echo_bool_list(std::vector<bool> v) {
  v.flip();
  return v;
}
std::vector<Tensor> echo_tensor_list(const std::vector<Tensor>& v) { return reversed(v); }
std::vector<std::optional<Tensor>> echo_opt_tensor_list(std::vector<std::optional<Tensor>> v) {
  return reversed(std::move(v));
}
std::optional<std::vector<int64_t>> echo_opt_int_list(
    std::optional<torch::headeronly::HeaderOnlyArrayRef<int64_t>> v) {
  if (!v) return std::nullopt;
  return reversed(std::vector<int64_t>(v->begin(), v->end()));
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(sdk_test, m) {
  m.def("echo_int(int x) -> int");
  m.def("echo_float(float x) -> float");
  m.def("echo_bool(bool x) -> bool");
  m.def("echo_str(str x) -> str");
  m.def("echo_dtype(ScalarType x) -> ScalarType");
  m.def("echo_layout(Layout x) -> Layout");
  m.def("echo_memory_format(MemoryFormat x) -> MemoryFormat");
  m.def("echo_device(Device x) -> Device");
  m.def("echo_scalar(Scalar x) -> Scalar");
  m.def("echo_tensor(Tensor x) -> Tensor");
  m.def("echo_opt_tensor(Tensor? x) -> Tensor?");
  m.def("echo_opt_int(int? x) -> int?");
  m.def("echo_opt_float(float? x) -> float?");
  m.def("echo_opt_str(str? x) -> str?");
  m.def("echo_opt_dtype(ScalarType? x) -> ScalarType?");
  m.def("echo_opt_device(Device? x) -> Device?");
  m.def("echo_int_list(int[] x) -> int[]");
  m.def("echo_float_list(float[] x) -> float[]");
  m.def("echo_bool_list(bool[] x) -> bool[]");
  m.def("echo_tensor_list(Tensor[] x) -> Tensor[]");
  m.def("echo_opt_tensor_list(Tensor?[] x) -> Tensor?[]");
  m.def("echo_opt_int_list(int[]? x) -> int[]?");
}

STABLE_TORCH_LIBRARY_IMPL(sdk_test, CompositeExplicitAutograd, m) {
  m.impl("echo_int", TORCH_BOX(&echo_int));
  m.impl("echo_float", TORCH_BOX(&echo_float));
  m.impl("echo_bool", TORCH_BOX(&echo_bool));
  m.impl("echo_str", TORCH_BOX(&echo_str));
  m.impl("echo_dtype", TORCH_BOX(&echo_dtype));
  m.impl("echo_layout", TORCH_BOX(&echo_layout));
  m.impl("echo_memory_format", TORCH_BOX(&echo_memory_format));
  m.impl("echo_device", TORCH_BOX(&echo_device));
  m.impl("echo_scalar", TORCH_BOX(&echo_scalar));
  m.impl("echo_tensor", TORCH_BOX(&echo_tensor));
  m.impl("echo_opt_tensor", TORCH_BOX(&echo_opt_tensor));
  m.impl("echo_opt_int", TORCH_BOX(&echo_opt_int));
  m.impl("echo_opt_float", TORCH_BOX(&echo_opt_float));
  m.impl("echo_opt_str", TORCH_BOX(&echo_opt_str));
  m.impl("echo_opt_dtype", TORCH_BOX(&echo_opt_dtype));
  m.impl("echo_opt_device", TORCH_BOX(&echo_opt_device));
  m.impl("echo_int_list", TORCH_BOX(&echo_int_list));
  m.impl("echo_float_list", TORCH_BOX(&echo_float_list));
  m.impl("echo_bool_list", TORCH_BOX(&echo_bool_list));
  m.impl("echo_tensor_list", TORCH_BOX(&echo_tensor_list));
  m.impl("echo_opt_tensor_list", TORCH_BOX(&echo_opt_tensor_list));
  m.impl("echo_opt_int_list", TORCH_BOX(&echo_opt_int_list));
}
