// The PyTorch stable-ABI level these headers implement.
//
// TORCH_ABI_VERSION packs major<<56 | minor<<48 | patch<<40 | abi_tag, one
// byte per component and 40 bits of tag, exactly as PyTorch does, so that an
// extension compares versions with plain integer comparisons. This level is
// the SDK's *claim* and is raised only once every function of the new level
// is implemented and exported (see docs/abi_policy.md). The project's own
// version (stabletorch 0.1.0) is separate: <stabletorch/version.h>.
#ifndef TORCH_HEADERONLY_VERSION_H
#define TORCH_HEADERONLY_VERSION_H

#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 15
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION_ABI_TAG 0
#define TORCH_VERSION "2.15.0"

// Usable both in code and in #if: only integer literals (suffix ULL, pasted
// onto the literal arguments), no casts. Arguments must be literals or
// macros expanding to literals.
#define TORCH_MAKE_ABI_VERSION(major, minor, patch) \
  TORCH_MAKE_ABI_VERSION_IMPL_(major, minor, patch)
#define TORCH_MAKE_ABI_VERSION_IMPL_(major, minor, patch) \
  (((major##ULL) << 56) | ((minor##ULL) << 48) | ((patch##ULL) << 40))

#define TORCH_ABI_VERSION                                                                  \
  (TORCH_MAKE_ABI_VERSION(TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH) | \
   TORCH_VERSION_ABI_TAG)

// Feature-level constants used by version blocks in C and C++ headers.
#define TORCH_VERSION_2_9_0 TORCH_MAKE_ABI_VERSION(2, 9, 0)
#define TORCH_VERSION_2_10_0 TORCH_MAKE_ABI_VERSION(2, 10, 0)
#define TORCH_VERSION_2_11_0 TORCH_MAKE_ABI_VERSION(2, 11, 0)
#define TORCH_VERSION_2_12_0 TORCH_MAKE_ABI_VERSION(2, 12, 0)
#define TORCH_VERSION_2_13_0 TORCH_MAKE_ABI_VERSION(2, 13, 0)
#define TORCH_VERSION_2_14_0 TORCH_MAKE_ABI_VERSION(2, 14, 0)
#define TORCH_VERSION_2_15_0 TORCH_MAKE_ABI_VERSION(2, 15, 0)
#define TORCH_VERSION_2_16_0 TORCH_MAKE_ABI_VERSION(2, 16, 0)

#endif  // TORCH_HEADERONLY_VERSION_H
