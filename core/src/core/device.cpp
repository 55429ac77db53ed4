#include <st/core/device.h>

#include <cctype>
#include <sstream>

#include <st/core/error.h>

namespace st {
namespace {

constexpr DeviceType kAllTypes[] = {
    DeviceType::CPU,         DeviceType::CUDA,  DeviceType::MKLDNN, DeviceType::OPENGL,
    DeviceType::OPENCL,      DeviceType::IDEEP, DeviceType::HIP,    DeviceType::FPGA,
    DeviceType::MAIA,        DeviceType::XLA,   DeviceType::Vulkan, DeviceType::Metal,
    DeviceType::XPU,         DeviceType::MPS,   DeviceType::Meta,   DeviceType::HPU,
    DeviceType::VE,          DeviceType::Lazy,  DeviceType::IPU,    DeviceType::MTIA,
    DeviceType::PrivateUse1,
};

std::string type_list() {
  std::ostringstream os;
  bool first = true;
  for (DeviceType t : kAllTypes) {
    os << (first ? "" : ", ") << torch::headeronly::DeviceTypeName(t, true);
    first = false;
  }
  return os.str();
}

bool parse_type(const std::string& name, DeviceType* out) {
  for (DeviceType t : kAllTypes) {
    if (torch::headeronly::DeviceTypeName(t, true) == name) {
      *out = t;
      return true;
    }
  }
  return false;
}

}  // namespace

void Device::validate(DeviceType type, DeviceIndex index) {
  ST_CHECK(torch::headeronly::isValidDeviceType(type), "Device: invalid device type ordinal ",
           static_cast<int>(type), " (expected 0 to ",
           torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES - 1, ")");
  ST_CHECK(index >= -1, "Device: device index must be -1 or non-negative, got ",
           static_cast<int>(index));
  if (type == DeviceType::CPU) {
    // cpu:0 stays cpu:0, as PyTorch's Device keeps it (a Device argument
    // reaches a kernel as given); tensors are plain "cpu" (TensorImpl).
    ST_CHECK(index == -1 || index == 0, "Device: CPU device index must be -1 or zero, got ",
             static_cast<int>(index));
  }
}

Device::Device(const std::string& s) : type_(DeviceType::CPU), index_(-1) {
  ST_CHECK(!s.empty(), "Device: device string must not be empty");
  const size_t colon = s.find(':');
  const std::string name = s.substr(0, colon);
  if (!parse_type(name, &type_)) {
    ST_ERROR("Device: expected one of ", type_list(),
             " device type at start of device string: ", s);
  }
  if (colon != std::string::npos) {
    const std::string digits = s.substr(colon + 1);
    bool ok = !digits.empty() && digits.size() <= 3 && (digits.size() == 1 || digits[0] != '0');
    for (char c : digits) {
      ok = ok && std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    int value = ok ? std::stoi(digits) : -1;
    ST_CHECK(ok && value <= 127, "Device: invalid device string: '", s,
             "' (expected '<type>' or '<type>:<index>' with an index in "
             "[0, 127])");
    index_ = static_cast<DeviceIndex>(value);
  }
  validate(type_, index_);
}

std::string Device::str() const {
  std::string out = torch::headeronly::DeviceTypeName(type_, true);
  if (has_index()) {
    out += ':';
    out += std::to_string(static_cast<int>(index_));
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Device& device) { return os << device.str(); }

}  // namespace st
