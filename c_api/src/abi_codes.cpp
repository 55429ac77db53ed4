// Decoding of the C ABI's integer codes (see abi_codes.h).
#include "abi_codes.h"

#include <st/core/error.h>

namespace stc {

using torch::headeronly::DeviceType;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;

namespace detail {

void throw_bad_dtype_code(int32_t code, const char* what) {
  ST_ERROR(what, ": unsupported dtype code ", code, " (use the aoti_torch_dtype_*() getters)");
}

void throw_bad_device_codes(int32_t type, int32_t index, const char* what) {
  ST_CHECK(is_supported_device_type_code(type), what, ": unsupported device type code ", type,
           " (use the aoti_torch_device_type_*() getters)");
  ST_CHECK(is_device_index_code(index), what, ": device index ", index,
           " is out of range (expected -1 or 0..127)");
  // Called only for codes device_from_codes refused: the rule left.
  ST_ERROR(what, ": a CPU device index must be -1 or 0, got ", index);
}

}  // namespace detail

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
