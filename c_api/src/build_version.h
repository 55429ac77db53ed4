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
//
// Note [Build versions older than the runtime]
// What changed for an extension between 2.9 and the newest level known,
// and how an older caller is served as PyTorch serves it:
// - 2.9 headers call the unversioned aoti_torch_call_dispatcher and
//   aoti_torch_library_impl (2.10 added the versioned ones): those are
//   served as build version 2.9.0 (kUnversionedBuildVersion).
// - 2.13 moved the heap slot of a present optional (`T?`) from the
//   extension's `new StableIValue` / `delete` to torch_new_stable_ivalue /
//   torch_delete_stable_ivalue. The runtime frees a caller's slot of
//   either kind (Note [Checked optional slots]), and every slot it hands to
//   an extension (arguments of its kernels, returns of call_dispatcher) is
//   made with operator new, untracked: a caller built before 2.13 frees it
//   with `delete`, a newer one with torch_delete_stable_ivalue, and both
//   are right. Handing out tracked slots to 2.13+ callers only would break
//   every caller whose headers still `delete` them.
// - No schema of an operator the stable headers call changed between 2.9
//   and 2.15, so no stack needs adapting by version yet.
#pragma once

#include <cstdint>

#include <torch/headeronly/version.h>

namespace stc {

constexpr uint64_t kAbiLevelMask = ~((uint64_t{1} << 40) - 1);
// 2.15.0, the level of the PyTorch headers the conformance stage uses.
constexpr uint64_t kNewestKnownBuildVersion = (uint64_t{2} << 56) | (uint64_t{15} << 48);
static_assert((uint64_t{TORCH_ABI_VERSION} & kAbiLevelMask) <= kNewestKnownBuildVersion,
              "raise kNewestKnownBuildVersion with TORCH_ABI_VERSION");

// The build version of callers of the unversioned entry points.
constexpr uint64_t kUnversionedBuildVersion = (uint64_t{2} << 56) | (uint64_t{9} << 48);

[[noreturn]] void throw_newer_build_version(uint64_t extension_build_version);

// Throws st::Error naming the versions when `extension_build_version` is of
// a newer level than kNewestKnownBuildVersion.
inline void check_extension_build_version(uint64_t extension_build_version) {
  if (__builtin_expect((extension_build_version & kAbiLevelMask) > kNewestKnownBuildVersion, 0)) {
    throw_newer_build_version(extension_build_version);
  }
}

}  // namespace stc
