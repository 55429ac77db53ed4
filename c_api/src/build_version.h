// The extension_build_version argument of torch_call_dispatcher and
// torch_library_impl: the TORCH_ABI_VERSION of the headers the caller was
// built with.
//
// Note [Build versions newer than the runtime]
// The runtime adapts stacks of callers built at older levels; it cannot
// know the encodings of a level newer than any it was checked against, so
// such a caller is refused before anything of its is read (its stack stays
// its own). That bound is the newest PyTorch release whose headers the
// conformance stage builds plugins with (kNewestKnownBuildVersion), not
// this runtime's own TORCH_ABI_VERSION: PyTorch's headers pass their own
// TORCH_ABI_VERSION whatever level a plugin targets, and such plugins run
// here (they use only what their target level has). Only the level
// (major.minor.patch, the top 24 bits) is compared: the ABI tag below it
// marks builds of one level.
#pragma once

#include <cstdint>

#include <torch/headeronly/version.h>

namespace stc {

constexpr uint64_t kAbiLevelMask = ~((uint64_t{1} << 40) - 1);
// 2.15.0, the level of the PyTorch headers the conformance stage uses.
constexpr uint64_t kNewestKnownBuildVersion = (uint64_t{2} << 56) | (uint64_t{15} << 48);
static_assert((uint64_t{TORCH_ABI_VERSION} & kAbiLevelMask) <= kNewestKnownBuildVersion,
              "raise kNewestKnownBuildVersion with TORCH_ABI_VERSION");

[[noreturn]] void throw_newer_build_version(uint64_t extension_build_version);

// Throws st::Error naming the versions when `extension_build_version` is of
// a newer level than kNewestKnownBuildVersion.
inline void check_extension_build_version(uint64_t extension_build_version) {
  if (__builtin_expect((extension_build_version & kAbiLevelMask) > kNewestKnownBuildVersion, 0)) {
    throw_newer_build_version(extension_build_version);
  }
}

}  // namespace stc
