// What every CUDA test file needs: the device they run on, the skip when
// the machine has none, and the copies to and from it.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include <st/core/device.h>
#include <st/core/tensor.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>

namespace st_cuda_test {

inline const st::Device kCuda0("cuda:0");

// Device tests use the real CUDA runtime; without a device they skip,
// saying so, instead of failing.
#define SKIP_WITHOUT_GPU()                                                 \
  do {                                                                     \
    if (st::device_count(st::DeviceType::CUDA) == 0) {                     \
      GTEST_SKIP() << "cudaGetDeviceCount reports no CUDA device";         \
    }                                                                      \
  } while (0)

inline st::Tensor to_cpu(const st::Tensor& t) {
  return st::to(t, std::nullopt, std::nullopt, st::Device("cpu"));
}
inline st::Tensor to_cuda(const st::Tensor& t) {
  return st::to(t, std::nullopt, std::nullopt, kCuda0);
}

}  // namespace st_cuda_test
