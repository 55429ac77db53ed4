// torch::stable::Device: a device type and an index (-1 = "the current
// one"), as c10::Device, passed across the C ABI as one StableIValue (index
// in the low 32 bits, device-type code in the high 32 bits).
//
// Every member is defined here, inline, so including this header alone is
// enough to use and link all of Device (unlike PyTorch issue #180492, where
// the string constructor lived only in device_inl.h).
#pragma once

#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/enum_codes.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

using DeviceIndex = int32_t;
using torch::headeronly::DeviceType;

class Device {
 public:
  // Implicit from a device type, as c10::Device.
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {
    validate();
  }

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  // Parses "cpu", "cuda", "cuda:1", "privateuseone:0", ... through the core
  // (torch_parse_device_string); throws with the core's message when the
  // string is not a device.
  /* implicit */ Device(const std::string& device_string) {
    uint32_t type_code = 0;
    int32_t index = -1;
    STABLE_TORCH_ERROR_CODE_CHECK(
        torch_parse_device_string(device_string.c_str(), &type_code, &index));
    type_ = detail::from_shim_device_type(static_cast<int32_t>(type_code));
    index_ = index;
    validate();
  }
#else
  // Stub: Device(std::string) needs 2.10 (torch_parse_device_string).
  template <typename S, std::enable_if_t<std::is_convertible_v<const S&, std::string>, int> = 0>
  /* implicit */ Device(const S&) : type_(DeviceType::CPU) {
    static_assert(detail::dependent_false_v<S>,
                  STABLE_VERSION_ERROR_("torch::stable::Device(const std::string&)",
                                        "TORCH_VERSION_2_10_0", "2.10"));
  }
#endif

  bool operator==(const Device& other) const noexcept {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

  void set_index(DeviceIndex index) {
    index_ = index;
    validate();
  }

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_privateuseone() const noexcept { return type_ == DeviceType::PrivateUse1; }

  std::string str() const {
    std::string s = torch::headeronly::DeviceTypeName(type_, true);
    if (has_index()) {
      s += ":" + std::to_string(index_);
    }
    return s;
  }

 private:
  void validate() const {
    STD_TORCH_CHECK(index_ >= -1, "Device index must be -1 or non-negative, got ", index_);
    STD_TORCH_CHECK(type_ != DeviceType::CPU || index_ <= 0,
                    "CPU device index must be -1 or zero, got ", index_);
  }

  DeviceType type_;
  DeviceIndex index_ = -1;
};

inline std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

HIDDEN_NAMESPACE_END(torch, stable)
