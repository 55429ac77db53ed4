#include "stable_test_util.h"

#include <cstring>
#include <stdexcept>

namespace stable_test {

namespace ts = torch::stable;
using torch::headeronly::ScalarType;

std::string last_error() { return ts::detail::last_core_error(); }

void ensure_extension_loaded() {
  static StableTorchPluginHandle plugin = nullptr;
  static std::string error;
  if (plugin == nullptr && error.empty()) {
    if (stabletorch_load_library(SDK_TEST_PLUGIN, &plugin) != AOTI_TORCH_SUCCESS) {
      error = last_error();
    }
  }
  ASSERT_NE(plugin, nullptr) << "loading " << SDK_TEST_PLUGIN << ": " << error;
}

std::vector<StableIValue> call(const char* op, const char* overload, std::vector<StableIValue> args,
                               size_t n_returns) {
  if (args.size() < n_returns) args.resize(n_returns, 0);
  if (torch_call_dispatcher(op, overload, args.data(), TORCH_ABI_VERSION) != AOTI_TORCH_SUCCESS) {
    throw std::runtime_error(last_error());
  }
  args.resize(n_returns);
  return args;
}

Tensor call_tensor(const char* op, const char* overload, std::vector<StableIValue> args) {
  return ts::detail::to<Tensor>(call(op, overload, std::move(args), 1)[0]);
}

Tensor make_tensor(std::vector<int64_t> sizes, std::vector<double> vals, ScalarType dtype) {
  std::vector<int64_t> strides(sizes.size());
  int64_t step = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = step;
    step *= sizes[d];
  }
  if (static_cast<int64_t>(vals.size()) != step) {
    throw std::runtime_error("make_tensor: value count does not match the sizes");
  }
  // A view of vals, then an owned copy in the requested dtype.
  const Tensor view =
      ts::from_blob(vals.data(), sizes, strides, ts::Device(torch::headeronly::DeviceType::CPU),
                    ScalarType::Double);
  return ts::to(view, dtype, std::nullopt, std::nullopt, std::nullopt, false, /*copy=*/true);
}

Tensor ramp(std::vector<int64_t> sizes, ScalarType dtype) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 1;
  return make_tensor(std::move(sizes), std::move(v), dtype);
}

namespace {

double read_element(const Tensor& t, const char* base) {
  switch (t.scalar_type()) {
    case ScalarType::Float: {
      float v;
      std::memcpy(&v, base, sizeof v);
      return v;
    }
    case ScalarType::Double: {
      double v;
      std::memcpy(&v, base, sizeof v);
      return v;
    }
    case ScalarType::Long: {
      int64_t v;
      std::memcpy(&v, base, sizeof v);
      return static_cast<double>(v);
    }
    case ScalarType::Int: {
      int32_t v;
      std::memcpy(&v, base, sizeof v);
      return v;
    }
    case ScalarType::Bool: {
      bool v;
      std::memcpy(&v, base, sizeof v);
      return v ? 1 : 0;
    }
    default:
      throw std::runtime_error("values(): unsupported dtype in the test helper");
  }
}

}  // namespace

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  const int64_t n = t.numel();
  if (n == 0) return out;
  const auto sz = t.sizes();
  const auto st = t.strides();
  const auto* base = static_cast<const char*>(t.const_data_ptr());
  const int64_t es = static_cast<int64_t>(t.element_size());
  std::vector<int64_t> idx(sz.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * st[d];
    out.push_back(read_element(t, base + off * es));
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < sz[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

std::vector<int64_t> sizes(const Tensor& t) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}

::testing::AssertionResult same_tensor(const Tensor& a, const Tensor& b) {
  if (a.defined() != b.defined()) return ::testing::AssertionFailure() << "defined differs";
  if (!a.defined()) return ::testing::AssertionSuccess();
  if (sizes(a) != sizes(b)) {
    return ::testing::AssertionFailure() << "sizes " << a.sizes() << " vs " << b.sizes();
  }
  if (a.scalar_type() != b.scalar_type()) {
    return ::testing::AssertionFailure()
           << "dtype " << a.scalar_type() << " vs " << b.scalar_type();
  }
  const auto va = values(a);
  const auto vb = values(b);
  for (size_t i = 0; i < va.size(); ++i) {
    if (!(va[i] == vb[i])) {
      return ::testing::AssertionFailure() << "element " << i << ": " << va[i] << " vs " << vb[i];
    }
  }
  return ::testing::AssertionSuccess();
}

void StableTest::SetUp() {
  ensure_extension_loaded();
  ASSERT_EQ(stabletorch_live_handle_count(&handles_before_), AOTI_TORCH_SUCCESS);
}

void StableTest::TearDown() {
  int64_t after = 0;
  ASSERT_EQ(stabletorch_live_handle_count(&after), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(after, handles_before_) << "C ABI handles leaked";
}

}  // namespace stable_test
