// torch::headeronly::MemoryFormat with c10's ordinals (fixed: they cross the
// ABI).
#pragma once

#include <cstdint>
#include <ostream>

namespace torch::headeronly {

enum class MemoryFormat : int8_t {
  Contiguous = 0,
  Preserve = 1,
  ChannelsLast = 2,
  ChannelsLast3d = 3,
  NumOptions = 4,
};

// The memory format of a freshly allocated contiguous tensor.
inline MemoryFormat get_contiguous_memory_format() { return MemoryFormat::Contiguous; }

inline const char* toString(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous:
      return "Contiguous";
    case MemoryFormat::Preserve:
      return "Preserve";
    case MemoryFormat::ChannelsLast:
      return "ChannelsLast";
    case MemoryFormat::ChannelsLast3d:
      return "ChannelsLast3d";
    default:
      return "UNKNOWN_MEMORY_FORMAT";
  }
}

inline std::ostream& operator<<(std::ostream& os, MemoryFormat format) {
  return os << toString(format);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::get_contiguous_memory_format;
using torch::headeronly::MemoryFormat;
}  // namespace c10
