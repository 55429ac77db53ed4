// st::Device: where a tensor's data lives, a device type plus an index.
// Index -1 means "no particular device" (the current one); CPU tensors
// always report -1.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include <st/core/export.h>
#include <torch/headeronly/core/DeviceType.h>

namespace st {

using DeviceType = torch::headeronly::DeviceType;
using DeviceIndex = int8_t;

class ST_API Device {
 public:
  // Throws st::Error for an index below -1, or a CPU index other than -1/0
  // (cpu:0 is kept, as in PyTorch; a CPU tensor's device is always plain
  // "cpu", see TensorImpl).
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {
    if (__builtin_expect(
            index < -1 || (type == DeviceType::CPU && index > 0) || static_cast<int8_t>(type) < 0 ||
                static_cast<int8_t>(type) >= torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES,
            0)) {
      validate(type, index);
    }
  }

  // Parses "cpu", "cuda", "cuda:1", "meta", "privateuseone:0", ...
  // Throws st::Error naming the string and what was expected.
  /* implicit */ Device(const std::string& device_string);
  /* implicit */ Device(const char* device_string) : Device(std::string(device_string)) {}

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }

  bool operator==(const Device& o) const noexcept { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const noexcept { return !(*this == o); }

  // "cpu", "cuda:1".
  std::string str() const;

 private:
  // Throws for a (type, index) the constructor refuses. Static, so the fast
  // path never takes the object's address: a Device built in a register
  // stays there (built in memory byte by byte and read back as one word, it
  // stalls on store forwarding).
  static void validate(DeviceType type, DeviceIndex index);

  DeviceType type_;
  DeviceIndex index_;
};

ST_API std::ostream& operator<<(std::ostream& os, const Device& device);

}  // namespace st

template <>
struct std::hash<st::Device> {
  size_t operator()(const st::Device& d) const noexcept {
    return (static_cast<size_t>(static_cast<uint8_t>(d.type())) << 8) |
           static_cast<uint8_t>(d.index());
  }
};
