// What every CUDA test file needs: the device they run on, the skip when
// the machine has none, the copies to and from it and the comparison with
// the CPU's result.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <st/core/device.h>
#include <st/core/tensor.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>

#include "native/test_helpers.h"

namespace st_cuda_test {

inline const st::Device kCuda0("cuda:0");

// Device tests use the real CUDA runtime; without a device they skip,
// saying so, instead of failing.
#define SKIP_WITHOUT_GPU()                                         \
  do {                                                             \
    if (st::device_count(st::DeviceType::CUDA) == 0) {             \
      GTEST_SKIP() << "cudaGetDeviceCount reports no CUDA device"; \
    }                                                              \
  } while (0)

inline st::Tensor to_cpu(const st::Tensor& t) {
  return st::to(t, std::nullopt, std::nullopt, st::Device("cpu"));
}
inline st::Tensor to_cuda(const st::Tensor& t) {
  return st::to(t, std::nullopt, std::nullopt, kCuda0);
}

// The CUDA result has the CPU result's dtype, shape and values (NaN where
// the CPU has NaN, infinities equal; others within rtol of the CPU's, or
// equal when rtol is 0).
inline void expect_match(const st::Tensor& expected, const st::Tensor& got_dev, double rtol = 0) {
  ASSERT_TRUE(got_dev.defined() && got_dev.is_cuda());
  const st::Tensor got = to_cpu(got_dev);
  EXPECT_EQ(got.dtype(), expected.dtype());
  EXPECT_TRUE(got.sizes() == expected.sizes()) << got.sizes() << " vs " << expected.sizes();
  const std::vector<double> g = st_native_test::values(got), e = st_native_test::values(expected);
  ASSERT_EQ(g.size(), e.size());
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(e[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << "element " << i << ": " << g[i];
    } else if (rtol == 0 || std::isinf(e[i])) {
      EXPECT_EQ(g[i], e[i]) << "element " << i;
    } else {
      EXPECT_NEAR(g[i], e[i], rtol * std::max(1.0, std::abs(e[i]))) << "element " << i;
    }
  }
}

}  // namespace st_cuda_test
