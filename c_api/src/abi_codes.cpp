// Decoding of the C ABI's integer codes (see abi_codes.h).
#include "abi_codes.h"

#include <st/core/error.h>

namespace stc {

using torch::headeronly::DeviceType;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;

bool is_supported_dtype_code(int32_t code) noexcept {
  if (code < 0 || code >= static_cast<int32_t>(ScalarType::NumOptions)) return false;
  switch (static_cast<ScalarType>(code)) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::ComplexHalf:
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
    case ScalarType::Bool:
    case ScalarType::BFloat16:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e4m3fnuz:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
    case ScalarType::Float8_e8m0fnu:
    case ScalarType::Float4_e2m1fn_x2:
      return true;
    default:
      return false;
  }
}

ScalarType dtype_from_code(int32_t code, const char* what) {
  ST_CHECK(is_supported_dtype_code(code), what, ": unsupported dtype code ", code,
           " (use the aoti_torch_dtype_*() getters)");
  return static_cast<ScalarType>(code);
}

bool is_supported_device_type_code(int32_t code) noexcept {
  switch (code) {
    case static_cast<int32_t>(DeviceType::CPU):
    case static_cast<int32_t>(DeviceType::CUDA):
    case static_cast<int32_t>(DeviceType::Meta):
    case static_cast<int32_t>(DeviceType::XPU):
    case static_cast<int32_t>(DeviceType::MPS):
    case static_cast<int32_t>(DeviceType::PrivateUse1):
      return true;
    default:
      return false;
  }
}

st::Device device_from_codes(int32_t type, int32_t index, const char* what) {
  ST_CHECK(is_supported_device_type_code(type), what, ": unsupported device type code ", type,
           " (use the aoti_torch_device_type_*() getters)");
  ST_CHECK(index >= -1 && index <= 127, what, ": device index ", index,
           " is out of range (expected -1 or 0..127)");
  const auto dt = static_cast<DeviceType>(type);
  ST_CHECK(dt != DeviceType::CPU || index <= 0, what, ": a CPU device index must be -1 or 0, got ",
           index);
  // cpu:0 stays cpu:0 (a Device argument reaches the kernel as given, as in
  // PyTorch); tensors made on it are plain "cpu" (the core's TensorImpl).
  return st::Device(dt, static_cast<st::DeviceIndex>(index));
}

Layout layout_from_code(int32_t code, const char* what) {
  ST_CHECK(code >= 0 && code < static_cast<int32_t>(Layout::NumOptions), what,
           ": unknown layout code ", code, " (use the aoti_torch_layout_*() getters)");
  return static_cast<Layout>(code);
}

MemoryFormat memory_format_from_code(int32_t code, const char* what) {
  ST_CHECK(code >= 0 && code < static_cast<int32_t>(MemoryFormat::NumOptions), what,
           ": unknown memory format code ", code,
           " (use the aoti_torch_memory_format_*() getters)");
  return static_cast<MemoryFormat>(code);
}

st::Tag tag_from_code(int32_t code, const char* what) {
  const std::optional<st::Tag> tag = st::tagFromOrdinal(code);
  ST_CHECK(tag.has_value(), what, ": unknown tag code ", code, " (use the torch_tag_*() getters)");
  return *tag;
}

}  // namespace stc
