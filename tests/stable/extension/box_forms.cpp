// TORCH_BOX with every parameter form, tuple and void returns, an in-place
// Tensor(a!) operator, a kernel that throws, and a hand-boxed kernel.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>

#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace {

namespace ts = torch::stable;
using torch::headeronly::HeaderOnlyArrayRef;
using ts::Tensor;

// One parameter of each form; the result reports what each one received.
std::tuple<Tensor, int64_t, std::string> forms(
    Tensor by_value, const Tensor& by_const_ref, Tensor& by_ref,
    const std::optional<Tensor>& opt_tensor, const std::vector<Tensor>& tensors,
    const std::string& const_str, std::string& str_ref, std::string_view view,
    HeaderOnlyArrayRef<int64_t> ints, std::optional<HeaderOnlyArrayRef<int64_t>> opt_ints,
    const std::string_view& view_ref, std::optional<double> opt_float) {
  Tensor sum = ts::add(ts::add(by_value, by_const_ref), by_ref);
  if (opt_tensor) sum = ts::add(sum, *opt_tensor);
  for (const Tensor& t : tensors) sum = ts::add(sum, t);
  int64_t total = 0;
  for (int64_t i : ints) total += i;
  if (opt_ints) {
    for (int64_t i : *opt_ints) total += 100 * i;
  }
  str_ref += "!";  // a T& parameter is writable
  std::ostringstream os;
  os << const_str << "|" << str_ref << "|" << view << "|" << view_ref << "|"
     << (opt_tensor ? "tensor" : "none") << "|" << tensors.size() << "|"
     << (opt_float ? std::to_string(*opt_float) : std::string("none"));
  return {sum, total, os.str()};
}

// Schema `Tensor(a!) x ... -> Tensor(a!)`: writes into x, returns x.
Tensor scale_(Tensor x, double factor) {
  STD_TORCH_CHECK(x.scalar_type() == torch::headeronly::ScalarType::Float,
                  "sdk_test::scale_: expected float32, got ", x.scalar_type());
  const Tensor c = ts::contiguous(x);
  STD_TORCH_CHECK(c.data_ptr() == x.data_ptr(), "sdk_test::scale_: expected a contiguous x");
  float* p = x.mutable_data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<float>(p[i] * factor);
  return x;
}

// -> (): mutates its argument, returns nothing.
void increment_(Tensor x) {
  float* p = x.mutable_data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) p[i] += 1.0f;
}

int64_t thrower(int64_t x) {
  STD_TORCH_CHECK(x > 0, "sdk_test::thrower: x must be positive, got ", x);
  return x;
}

// A one-element tuple still fills one slot; noexcept functions box too.
std::tuple<int64_t> single_tuple(int64_t x) noexcept { return {x * 3}; }

// Hand-boxed (no TORCH_BOX): steals its argument, writes stack[0].
void hand_boxed(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  STD_TORCH_CHECK(num_args == 1 && num_outputs == 1, "hand_boxed: bad counts");
  const int64_t x = torch::stable::detail::to<int64_t>(stack[0]);
  stack[0] = torch::stable::detail::from(x + 7);
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(sdk_test, m) {
  m.def(
      "forms(Tensor a, Tensor b, Tensor c, Tensor? d, Tensor[] e, str f, str g, str h, "
      "int[] i, int[]? j, str k, float? l) -> (Tensor, int, str)");
  m.def("scale_(Tensor(a!) x, float factor) -> Tensor(a!)");
  m.def("increment_(Tensor(a!) x) -> ()");
  m.def("thrower(int x) -> int");
  m.def("single_tuple(int x) -> int");
  m.def("hand_boxed(int x) -> int");
}

// An IMPL block before the def of its operator (PyTorch allows any order):
// the signature is checked when the def arrives. Operators without a tensor
// argument have no backend to dispatch on: their kernels are composite.
STABLE_TORCH_LIBRARY_IMPL(sdk_test, CompositeExplicitAutograd, m) {
  m.impl("late_def", TORCH_BOX(&thrower));
}
STABLE_TORCH_LIBRARY_FRAGMENT(sdk_test, m) { m.def("late_def(int x) -> int"); }

STABLE_TORCH_LIBRARY_IMPL(sdk_test, CPU, m) {
  m.impl("forms", TORCH_BOX(&forms));
  m.impl("scale_", TORCH_BOX(&scale_));
  m.impl("increment_", TORCH_BOX(&increment_));
}

STABLE_TORCH_LIBRARY_IMPL(sdk_test, CompositeExplicitAutograd, m) {
  m.impl("thrower", TORCH_BOX(&thrower));
  m.impl("hand_boxed", &hand_boxed);
  m.impl("single_tuple", TORCH_BOX(single_tuple));
}
