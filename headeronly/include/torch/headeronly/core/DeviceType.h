// torch::headeronly::DeviceType with c10's ordinals. The values cross the C
// ABI inside Device payloads (type in the high 32 bits), so they are fixed
// forever; tests/headeronly/test_device_type.cpp pins them.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include <torch/headeronly/util/Exception.h>

// The device types that are backends with per-backend dispatch keys, as
// _(Name, extra) for each (every backend but PrivateUse2/3).
#define C10_FORALL_BACKEND_DEVICE_TYPES(_, extra) \
  _(CPU, extra)                                   \
  _(CUDA, extra)                                  \
  _(HIP, extra)                                   \
  _(XLA, extra)                                   \
  _(MPS, extra)                                   \
  _(IPU, extra)                                   \
  _(XPU, extra)                                   \
  _(HPU, extra)                                   \
  _(VE, extra)                                    \
  _(Lazy, extra)                                  \
  _(Meta, extra)                                  \
  _(MTIA, extra)                                  \
  _(PrivateUse1, extra)

namespace torch::headeronly {

enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  MAIA = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  MTIA = 19,
  PrivateUse1 = 20,
  COMPILE_TIME_MAX_DEVICE_TYPES = 21,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kMAIA = DeviceType::MAIA;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;
constexpr DeviceType kMTIA = DeviceType::MTIA;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;

constexpr int COMPILE_TIME_MAX_DEVICE_TYPES =
    static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);

// Name of a device type. lower_case gives the spelling used in device
// strings ("cuda:1"); otherwise the enumerator name in upper case, as c10.
inline std::string DeviceTypeName(DeviceType d, bool lower_case = false) {
  const char* upper = nullptr;
  const char* lower = nullptr;
  switch (d) {
    case DeviceType::CPU:
      upper = "CPU";
      lower = "cpu";
      break;
    case DeviceType::CUDA:
      upper = "CUDA";
      lower = "cuda";
      break;
    case DeviceType::MKLDNN:
      upper = "MKLDNN";
      lower = "mkldnn";
      break;
    case DeviceType::OPENGL:
      upper = "OPENGL";
      lower = "opengl";
      break;
    case DeviceType::OPENCL:
      upper = "OPENCL";
      lower = "opencl";
      break;
    case DeviceType::IDEEP:
      upper = "IDEEP";
      lower = "ideep";
      break;
    case DeviceType::HIP:
      upper = "HIP";
      lower = "hip";
      break;
    case DeviceType::FPGA:
      upper = "FPGA";
      lower = "fpga";
      break;
    case DeviceType::MAIA:
      upper = "MAIA";
      lower = "maia";
      break;
    case DeviceType::XLA:
      upper = "XLA";
      lower = "xla";
      break;
    case DeviceType::Vulkan:
      upper = "VULKAN";
      lower = "vulkan";
      break;
    case DeviceType::Metal:
      upper = "METAL";
      lower = "metal";
      break;
    case DeviceType::XPU:
      upper = "XPU";
      lower = "xpu";
      break;
    case DeviceType::MPS:
      upper = "MPS";
      lower = "mps";
      break;
    case DeviceType::Meta:
      upper = "META";
      lower = "meta";
      break;
    case DeviceType::HPU:
      upper = "HPU";
      lower = "hpu";
      break;
    case DeviceType::VE:
      upper = "VE";
      lower = "ve";
      break;
    case DeviceType::Lazy:
      upper = "LAZY";
      lower = "lazy";
      break;
    case DeviceType::IPU:
      upper = "IPU";
      lower = "ipu";
      break;
    case DeviceType::MTIA:
      upper = "MTIA";
      lower = "mtia";
      break;
    case DeviceType::PrivateUse1:
      upper = "PRIVATEUSEONE";
      lower = "privateuseone";
      break;
    default:
      STD_TORCH_CHECK_MSG(false, "Unknown device type ordinal ", static_cast<int>(d));
  }
  return lower_case ? lower : upper;
}

inline bool isValidDeviceType(DeviceType d) {
  return static_cast<int>(d) >= 0 && static_cast<int>(d) < COMPILE_TIME_MAX_DEVICE_TYPES;
}

inline std::ostream& operator<<(std::ostream& os, DeviceType d) {
  return os << DeviceTypeName(d, /*lower_case=*/true);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES;
using torch::headeronly::DeviceType;
using torch::headeronly::DeviceTypeName;
using torch::headeronly::isValidDeviceType;
using torch::headeronly::kCPU;
using torch::headeronly::kCUDA;
using torch::headeronly::kFPGA;
using torch::headeronly::kHIP;
using torch::headeronly::kHPU;
using torch::headeronly::kIPU;
using torch::headeronly::kLazy;
using torch::headeronly::kMAIA;
using torch::headeronly::kMeta;
using torch::headeronly::kMetal;
using torch::headeronly::kMPS;
using torch::headeronly::kMTIA;
using torch::headeronly::kPrivateUse1;
using torch::headeronly::kVE;
using torch::headeronly::kVulkan;
using torch::headeronly::kXLA;
using torch::headeronly::kXPU;
}  // namespace c10
