// The extension_build_version argument of torch_call_dispatcher and
// torch_library_impl: the TORCH_ABI_VERSION of the headers the caller was
// built with.
//
// Note [Build versions newer than the runtime]
// The runtime adapts stacks of callers built at older levels; it cannot
// know the encodings of a level newer than its own, so such a caller is
// refused before anything of its is read (its stack stays its own). Only
// the level (major.minor.patch, the top 24 bits) is compared: the ABI tag
// below it marks builds of one level.
#pragma once

#include <cstdint>

#include <torch/headeronly/version.h>

namespace stc {

constexpr uint64_t kAbiLevelMask = ~((uint64_t{1} << 40) - 1);

[[noreturn]] void throw_newer_build_version(uint64_t extension_build_version);

// Throws st::Error naming both versions when `extension_build_version` is
// of a newer level than this runtime's TORCH_ABI_VERSION.
inline void check_extension_build_version(uint64_t extension_build_version) {
  if (__builtin_expect((extension_build_version & kAbiLevelMask) >
                           (uint64_t{TORCH_ABI_VERSION} & kAbiLevelMask),
                       0)) {
    throw_newer_build_version(extension_build_version);
  }
}

}  // namespace stc
