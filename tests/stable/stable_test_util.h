// Shared by the tests of the stable C++ SDK: loads the sdk_test extension
// once per process, calls operators through torch_call_dispatcher with
// stacks built by torch::stable::detail::from, and compares tensors by
// value. The host side also uses only the SDK headers and libstabletorch.
#pragma once

#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace stable_test {

using torch::stable::Tensor;

// The thread's last error message of the core.
std::string last_error();

// Loads the sdk_test extension (once) and fails the test if it cannot.
void ensure_extension_loaded();

// Calls op.overload on owned arguments; returns the n_returns owned
// results. Throws std::runtime_error with the core's message on failure.
std::vector<StableIValue> call(const char* op, const char* overload, std::vector<StableIValue> args,
                               size_t n_returns);
Tensor call_tensor(const char* op, const char* overload, std::vector<StableIValue> args);

// A contiguous float32 (or other) CPU tensor holding `values` in `sizes`.
Tensor make_tensor(std::vector<int64_t> sizes, std::vector<double> values,
                   torch::headeronly::ScalarType dtype = torch::headeronly::ScalarType::Float);
// 0.5 * i - 1 for i = 0..numel-1.
Tensor ramp(std::vector<int64_t> sizes,
            torch::headeronly::ScalarType dtype = torch::headeronly::ScalarType::Float);

// Every element (logical order, any strides) as double.
std::vector<double> values(const Tensor& t);
std::vector<int64_t> sizes(const Tensor& t);

// Same sizes, dtype and values.
::testing::AssertionResult same_tensor(const Tensor& a, const Tensor& b);

// Loads the extension; checks after each test that no C-ABI handle leaked.
class StableTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

 private:
  int64_t handles_before_ = 0;
};

}  // namespace stable_test
