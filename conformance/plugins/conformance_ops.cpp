// conformance_ops: a plugin written only against the stable extension API
// that PyTorch 2.15 and stabletorch share (torch::stable, torch::headeronly,
// the C shims). It is compiled twice, once with each SDK's headers, and
// run on both runtimes by the conformance driver. Its operators exercise
// one StableIValue kind each, errors raised inside kernels, in-place and
// view returns, and calls back into the runtime's own operators.
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/version.h>
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
#include <torch/csrc/stable/generator.h>
#endif
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/util/Exception.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace conformance_ops {
namespace {

using torch::headeronly::ScalarType;
using torch::stable::Tensor;

// Applies fn(double) -> double to every element of a contiguous copy of x
// (float32 or float64), writing a new tensor of x's dtype and shape.
template <typename Fn>
Tensor map_floating(const Tensor& x, const char* op, Fn fn) {
  const ScalarType dtype = x.scalar_type();
  STD_TORCH_CHECK(dtype == ScalarType::Float || dtype == ScalarType::Double, "stconf::", op,
                  ": expected a float32 or float64 tensor, got ", dtype);
  const Tensor in = torch::stable::contiguous(x);
  Tensor out = torch::stable::empty_like(in);
  const int64_t n = in.numel();
  if (dtype == ScalarType::Float) {
    const float* src = static_cast<const float*>(in.data_ptr());
    float* dst = static_cast<float*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(fn(static_cast<double>(src[i])));
  } else {
    const double* src = static_cast<const double*>(in.data_ptr());
    double* dst = static_cast<double*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i) dst[i] = fn(src[i]);
  }
  return out;
}

// float argument.
Tensor affine(Tensor x, double scale, double shift) {
  return map_floating(x, "affine", [&](double v) { return v * scale + shift; });
}

// int argument.
Tensor add_int(Tensor x, int64_t k) {
  return map_floating(x, "add_int", [&](double v) { return v + static_cast<double>(k); });
}

// bool argument: one of two tensors.
Tensor pick(Tensor a, Tensor b, bool first) { return torch::stable::clone(first ? a : b); }

// ScalarType in and out.
ScalarType echo_dtype(ScalarType dtype) { return dtype; }

// ScalarType argument used to build a tensor.
Tensor cast(Tensor x, ScalarType dtype) { return torch::stable::to(x, dtype); }

// Device argument.
int64_t device_index(torch::stable::Device device) { return device.index(); }

// Optional float: None leaves the values alone.
Tensor maybe_fill(Tensor x, std::optional<double> value) {
  Tensor out = torch::stable::clone(x);
  if (value.has_value()) torch::stable::fill_(out, *value);
  return out;
}

// Optional tensor: x - y, or a copy of x.
Tensor maybe_subtract(Tensor x, std::optional<Tensor> y) {
  return y.has_value() ? torch::stable::subtract(x, *y) : torch::stable::clone(x);
}

// Tensor list: the sum of all elements of all tensors, as float64 0-dim.
double total(std::vector<Tensor> xs) {
  double sum = 0;
  for (const Tensor& x : xs) {
    const Tensor d = torch::stable::contiguous(torch::stable::to(x, ScalarType::Double));
    const double* p = static_cast<const double*>(d.data_ptr());
    for (int64_t i = 0; i < d.numel(); ++i) sum += p[i];
  }
  return sum;
}

// int list in, int out.
int64_t product(std::vector<int64_t> xs) {
  int64_t p = 1;
  for (int64_t x : xs) p *= x;
  return p;
}

// int list out: the sizes, reversed.
std::vector<int64_t> reversed_sizes(Tensor x) {
  std::vector<int64_t> sizes;
  for (int64_t d = x.dim() - 1; d >= 0; --d) sizes.push_back(x.size(d));
  return sizes;
}

// Strings in and out.
int64_t text_length(std::string s) { return static_cast<int64_t>(s.size()); }
std::string shout(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s + "!";
}

// An error raised inside a kernel must come back as a failed call.
Tensor require_positive(Tensor x) {
  const Tensor d = torch::stable::contiguous(torch::stable::to(x, ScalarType::Double));
  const double* p = static_cast<const double*>(d.data_ptr());
  for (int64_t i = 0; i < d.numel(); ++i)
    STD_TORCH_CHECK(p[i] > 0, "stconf::require_positive: element ", i, " is ", p[i]);
  return torch::stable::clone(x);
}

// In-place: returns its (mutated) argument.
Tensor zero_out_(Tensor x) {
  torch::stable::zero_(x);
  return x;
}

// View returns: the first row, and the transpose of the two first dims.
Tensor first_row(Tensor x) { return torch::stable::select(x, 0, 0); }
Tensor swap01(Tensor x) { return torch::stable::transpose(x, 0, 1); }

// The 2.10 wrappers over aten operators: bitwise and/or of two integer
// tensors, a permutation view, a stable descending sort, the bytes as
// int32 (a view), and is_pinned (false on every CPU tensor).
std::tuple<Tensor, Tensor> and_or(Tensor a, Tensor b) {
  return {torch::stable::bitwise_and(a, b), torch::stable::bitwise_or(a, b)};
}
Tensor reverse_dims(Tensor x) {
  std::vector<int64_t> dims(static_cast<size_t>(x.dim()));
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = static_cast<int64_t>(dims.size() - 1 - i);
  return torch::stable::permute(x, dims);
}
std::tuple<Tensor, Tensor> sorted_desc(Tensor x) {
  return torch::stable::sort(x, std::optional<bool>(true), -1, true);
}
Tensor as_int32(Tensor x) { return torch::stable::view(x, torch::headeronly::ScalarType::Int); }
bool pinned(Tensor x) { return torch::stable::is_pinned(x); }

// Two returns: the halves of the first dimension.
std::tuple<Tensor, Tensor> halves(Tensor x) {
  const int64_t n = x.size(0);
  return {torch::stable::narrow(x, 0, 0, n / 2), torch::stable::narrow(x, 0, n / 2, n - n / 2)};
}

// A call back into the runtime's own operator (aten::sum.dim_IntList).
Tensor row_sums(Tensor x) {
  std::vector<int64_t> dims{1};
  return torch::stable::sum(x, dims, false, std::nullopt);
}

// Three returns of different kinds: two views and a flag (whether the
// first dimension was odd).
std::tuple<Tensor, Tensor, bool> halves_flag(Tensor x) {
  auto [front, back] = halves(x);
  return {front, back, x.size(0) % 2 == 1};
}

// A list of tensors out: the rows (views).
std::vector<Tensor> rows(Tensor x) {
  std::vector<Tensor> out;
  for (int64_t i = 0; i < x.size(0); ++i) out.push_back(torch::stable::select(x, 0, i));
  return out;
}

// float list in.
double weighted(std::vector<double> w) {
  double sum = 0;
  for (size_t i = 0; i < w.size(); ++i) sum += w[i] * static_cast<double>(i + 1);
  return sum;
}

// Optional int and optional ScalarType.
int64_t int_or(std::optional<int64_t> k) { return k.value_or(-1); }
ScalarType dtype_or(Tensor x, std::optional<ScalarType> dtype) {
  return dtype.value_or(x.scalar_type());
}

// bool out.
bool negate(bool b) { return !b; }

// Layout and MemoryFormat arguments, returned as their enum values.
int64_t layout_value(torch::headeronly::Layout layout) { return static_cast<int64_t>(layout); }
int64_t memory_format_value(torch::headeronly::MemoryFormat format) {
  return static_cast<int64_t>(format);
}

// The code a Tag travels as (the runtime's torch_tag_* getter, 2.12), by
// ordinal; Tag::inplace and Tag::out have none and fail.
int64_t tag_code(int64_t ordinal) {
  namespace sd = torch::stable::detail;
  return sd::to<int32_t>(sd::from(static_cast<torch::headeronly::Tag>(ordinal)));
}

// Tensor::has_storage (2.14).
bool has_storage(Tensor x) { return x.has_storage(); }

// Stream::nativeHandle (2.13) of the current stream: the CPU has none.
bool stream_native_handle_is_null(int64_t device_index) {
  return torch::stable::accelerator::getCurrentStream(
             static_cast<torch::stable::accelerator::DeviceIndex>(device_index))
             .nativeHandle() == nullptr;
}

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
// Generator in: its device type as the enum value.
int64_t generator_device_type(torch::stable::Generator g) {
  return static_cast<int64_t>(g.device().type());
}

// Optional generator: -1 for None, else its device type.
int64_t maybe_generator_device_type(std::optional<torch::stable::Generator> g) {
  return g.has_value() ? generator_device_type(*g) : -1;
}

// n uniform draws of aten::rand.generator from g, through the runtime's
// dispatcher (g passed on as a new reference).
std::vector<float> draw(const torch::stable::Generator& g, int64_t n) {
  using torch::stable::detail::from;
  StableIValue stack[6] = {
      from(std::vector<int64_t>{n}), from(std::optional<torch::stable::Generator>(g)), 0, 0, 0, 0};
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_call_dispatcher("aten::rand", "generator", stack));
  const Tensor t = torch::stable::detail::to<Tensor>(stack[0]);
  const float* p = static_cast<const float*>(t.data_ptr());
  return std::vector<float>(p, p + n);
}

// Whether two generators give the same n draws (the numbers themselves
// differ between runtimes; that equal seeds give equal streams does not).
bool same_draws(torch::stable::Generator a, torch::stable::Generator b, int64_t n) {
  return draw(a, n) == draw(b, n);
}
#endif

}  // namespace
}  // namespace conformance_ops

STABLE_TORCH_LIBRARY(stconf, m) {
  m.def("affine(Tensor x, float scale, float shift) -> Tensor");
  m.def("add_int(Tensor x, int k) -> Tensor");
  m.def("pick(Tensor a, Tensor b, bool first) -> Tensor");
  m.def("echo_dtype(ScalarType dtype) -> ScalarType");
  m.def("cast(Tensor x, ScalarType dtype) -> Tensor");
  m.def("device_index(Device device) -> int");
  m.def("maybe_fill(Tensor x, float? value) -> Tensor");
  m.def("maybe_subtract(Tensor x, Tensor? y) -> Tensor");
  m.def("total(Tensor[] xs) -> float");
  m.def("product(int[] xs) -> int");
  m.def("reversed_sizes(Tensor x) -> int[]");
  m.def("text_length(str s) -> int");
  m.def("shout(str s) -> str");
  m.def("require_positive(Tensor x) -> Tensor");
  m.def("zero_out_(Tensor(a!) x) -> Tensor(a!)");
  m.def("first_row(Tensor(a) x) -> Tensor(a)");
  m.def("swap01(Tensor(a) x) -> Tensor(a)");
  m.def("halves(Tensor(a) x) -> (Tensor(a), Tensor(a))");
  m.def("and_or(Tensor a, Tensor b) -> (Tensor, Tensor)");
  m.def("reverse_dims(Tensor(a) x) -> Tensor(a)");
  m.def("sorted_desc(Tensor x) -> (Tensor, Tensor)");
  m.def("as_int32(Tensor(a) x) -> Tensor(a)");
  m.def("pinned(Tensor x) -> bool");
  m.def("row_sums(Tensor x) -> Tensor");
  m.def("halves_flag(Tensor(a) x) -> (Tensor(a), Tensor(a), bool)");
  m.def("rows(Tensor(a) x) -> Tensor(a)[]");
  m.def("weighted(float[] w) -> float");
  m.def("int_or(int? k) -> int");
  m.def("dtype_or(Tensor x, ScalarType? dtype) -> ScalarType");
  m.def("negate(bool b) -> bool");
  m.def("layout_value(Layout layout) -> int");
  m.def("memory_format_value(MemoryFormat format) -> int");
  // Defs with tags (2.12) and after set_python_module (2.13) load alike.
  m.def("tagged_affine(Tensor x, float scale, float shift) -> Tensor",
        {at::Tag::pointwise, at::Tag::pt2_compliant_tag});
  m.set_python_module("stconf_fake_kernels", "conformance");
  m.def("tag_code(int ordinal) -> int", {at::Tag::core});
  m.def("has_storage(Tensor x) -> bool");
  m.def("stream_native_handle_is_null(int device_index) -> bool");
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
  m.def("generator_device_type(Generator g) -> int");
  m.def("maybe_generator_device_type(Generator? g) -> int");
  m.def("same_draws(Generator a, Generator b, int n) -> bool");
#endif
}

STABLE_TORCH_LIBRARY_IMPL(stconf, CPU, m) {
  m.impl("affine", TORCH_BOX(&conformance_ops::affine));
  m.impl("add_int", TORCH_BOX(&conformance_ops::add_int));
  m.impl("pick", TORCH_BOX(&conformance_ops::pick));
  m.impl("cast", TORCH_BOX(&conformance_ops::cast));
  m.impl("maybe_fill", TORCH_BOX(&conformance_ops::maybe_fill));
  m.impl("maybe_subtract", TORCH_BOX(&conformance_ops::maybe_subtract));
  m.impl("total", TORCH_BOX(&conformance_ops::total));
  m.impl("reversed_sizes", TORCH_BOX(&conformance_ops::reversed_sizes));
  m.impl("require_positive", TORCH_BOX(&conformance_ops::require_positive));
  m.impl("zero_out_", TORCH_BOX(&conformance_ops::zero_out_));
  m.impl("first_row", TORCH_BOX(&conformance_ops::first_row));
  m.impl("swap01", TORCH_BOX(&conformance_ops::swap01));
  m.impl("halves", TORCH_BOX(&conformance_ops::halves));
  m.impl("and_or", TORCH_BOX(&conformance_ops::and_or));
  m.impl("reverse_dims", TORCH_BOX(&conformance_ops::reverse_dims));
  m.impl("sorted_desc", TORCH_BOX(&conformance_ops::sorted_desc));
  m.impl("as_int32", TORCH_BOX(&conformance_ops::as_int32));
  m.impl("pinned", TORCH_BOX(&conformance_ops::pinned));
  m.impl("row_sums", TORCH_BOX(&conformance_ops::row_sums));
  m.impl("halves_flag", TORCH_BOX(&conformance_ops::halves_flag));
  m.impl("rows", TORCH_BOX(&conformance_ops::rows));
  m.impl("dtype_or", TORCH_BOX(&conformance_ops::dtype_or));
  m.impl("tagged_affine", TORCH_BOX(&conformance_ops::affine));
  m.impl("has_storage", TORCH_BOX(&conformance_ops::has_storage));
}

// Operators without a tensor argument dispatch to the composite kernel.
STABLE_TORCH_LIBRARY_IMPL(stconf, CompositeExplicitAutograd, m) {
  m.impl("echo_dtype", TORCH_BOX(&conformance_ops::echo_dtype));
  m.impl("device_index", TORCH_BOX(&conformance_ops::device_index));
  m.impl("product", TORCH_BOX(&conformance_ops::product));
  m.impl("text_length", TORCH_BOX(&conformance_ops::text_length));
  m.impl("shout", TORCH_BOX(&conformance_ops::shout));
  m.impl("weighted", TORCH_BOX(&conformance_ops::weighted));
  m.impl("int_or", TORCH_BOX(&conformance_ops::int_or));
  m.impl("negate", TORCH_BOX(&conformance_ops::negate));
  m.impl("layout_value", TORCH_BOX(&conformance_ops::layout_value));
  m.impl("memory_format_value", TORCH_BOX(&conformance_ops::memory_format_value));
  m.impl("tag_code", TORCH_BOX(&conformance_ops::tag_code));
  m.impl("stream_native_handle_is_null", TORCH_BOX(&conformance_ops::stream_native_handle_is_null));
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
  m.impl("generator_device_type", TORCH_BOX(&conformance_ops::generator_device_type));
  m.impl("maybe_generator_device_type", TORCH_BOX(&conformance_ops::maybe_generator_device_type));
  m.impl("same_draws", TORCH_BOX(&conformance_ops::same_draws));
#endif
}
