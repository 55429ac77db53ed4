/*
 * TORCH_FEATURE_VERSION: the stable-ABI level an extension is compiled for.
 *
 * An extension may define TORCH_TARGET_VERSION (e.g. 0x0209000000000000 for
 * 2.9) to build for an older core: every declaration newer than the target
 * then disappears from the headers, so using it is a compile error, and the
 * plugin imports only symbols that core has. Without a target, the feature
 * level is the headers' own TORCH_ABI_VERSION. Pure preprocessor: valid C.
 */
#ifndef TORCH_CSRC_STABLE_VERSION_H
#define TORCH_CSRC_STABLE_VERSION_H

#include <torch/headeronly/version.h>

#ifdef TORCH_TARGET_VERSION
#if TORCH_TARGET_VERSION > TORCH_ABI_VERSION
#error \
    "TORCH_TARGET_VERSION is newer than the stable-ABI level of these headers (TORCH_ABI_VERSION); use headers of that level or lower the target"
#endif
#define TORCH_FEATURE_VERSION TORCH_TARGET_VERSION
#else
#define TORCH_FEATURE_VERSION TORCH_ABI_VERSION
#endif

#endif /* TORCH_CSRC_STABLE_VERSION_H */
