// Decoding the integer codes that cross the C ABI (dtype, device type and
// index, layout, memory format, operator tag) into core values, with errors naming the
// argument and the bad code.
#pragma once

#include <cstdint>

#include <st/core/device.h>
#include <st/dispatch/tag.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace stc {

namespace detail {

constexpr uint64_t bit(torch::headeronly::ScalarType t) {
  return uint64_t{1} << static_cast<int>(t);
}

// The dtypes the C ABI can name (those with an aoti_torch_dtype_* or
// torch_dtype_* getter). No qint/bits/int1-7.
constexpr uint64_t kSupportedDtypes = [] {
  using T = torch::headeronly::ScalarType;
  return bit(T::Byte) | bit(T::Char) | bit(T::Short) | bit(T::Int) | bit(T::Long) | bit(T::Half) |
         bit(T::Float) | bit(T::Double) | bit(T::ComplexHalf) | bit(T::ComplexFloat) |
         bit(T::ComplexDouble) | bit(T::Bool) | bit(T::BFloat16) | bit(T::Float8_e5m2) |
         bit(T::Float8_e4m3fn) | bit(T::Float8_e5m2fnuz) | bit(T::Float8_e4m3fnuz) |
         bit(T::UInt16) | bit(T::UInt32) | bit(T::UInt64) | bit(T::Float8_e8m0fnu) |
         bit(T::Float4_e2m1fn_x2);
}();
static_assert(static_cast<int>(torch::headeronly::ScalarType::NumOptions) <= 64,
              "a dtype code must fit the mask");

// The errors of dtype_from_code and device_from_codes, naming the argument
// and what is wrong with its code(s).
[[noreturn]] void throw_bad_dtype_code(int32_t code, const char* what);
[[noreturn]] void throw_bad_device_codes(int32_t type, int32_t index, const char* what);

}  // namespace detail

constexpr bool is_supported_dtype_code(int32_t code) noexcept {
  return code >= 0 && code < 64 && ((detail::kSupportedDtypes >> code) & 1) != 0;
}

inline torch::headeronly::ScalarType dtype_from_code(int32_t code, const char* what) {
  if (__builtin_expect(!is_supported_dtype_code(code), 0)) detail::throw_bad_dtype_code(code, what);
  return static_cast<torch::headeronly::ScalarType>(code);
}

// The device types the C ABI can name: CPU, CUDA, Meta, XPU, MPS,
// PrivateUse1.
constexpr bool is_supported_device_type_code(int32_t code) noexcept {
  using D = torch::headeronly::DeviceType;
  return code == static_cast<int32_t>(D::CPU) || code == static_cast<int32_t>(D::CUDA) ||
         code == static_cast<int32_t>(D::Meta) || code == static_cast<int32_t>(D::XPU) ||
         code == static_cast<int32_t>(D::MPS) || code == static_cast<int32_t>(D::PrivateUse1);
}

namespace detail {
// The two rules on a device index besides its type's: the range the C ABI
// carries, and a CPU device's -1 or 0. The decoding and its error share
// them.
constexpr bool is_device_index_code(int32_t index) noexcept { return index >= -1 && index <= 127; }
constexpr bool is_index_for_type(int32_t type, int32_t index) noexcept {
  return type != static_cast<int32_t>(torch::headeronly::DeviceType::CPU) || index <= 0;
}
}  // namespace detail

// A device from a type code and an index in [-1, 127]; a CPU index must be
// -1 or 0. cpu:0 stays cpu:0 (a Device argument reaches the kernel as
// given, as in PyTorch); tensors made on it are plain "cpu" (the core's
// TensorImpl). Inline: every factory call decodes one.
inline st::Device device_from_codes(int32_t type, int32_t index, const char* what) {
  const bool ok = is_supported_device_type_code(type) && detail::is_device_index_code(index) &&
                  detail::is_index_for_type(type, index);
  if (__builtin_expect(!ok, 0)) detail::throw_bad_device_codes(type, index, what);
  return st::Device(static_cast<torch::headeronly::DeviceType>(type),
                    static_cast<st::DeviceIndex>(index));
}

torch::headeronly::Layout layout_from_code(int32_t code, const char* what);
torch::headeronly::MemoryFormat memory_format_from_code(int32_t code, const char* what);
// Any Tag ordinal (the torch_tag_* getters return them; Tag::inplace and
// Tag::out have no getter but are tags all the same).
st::Tag tag_from_code(int32_t code, const char* what);

}  // namespace stc
