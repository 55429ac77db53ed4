// The compiler's SIMD intrinsics for the target: <immintrin.h> on x86,
// <arm_neon.h> (and <arm_sve.h> when SVE is enabled) on ARM, <altivec.h> on
// POWER, <vecintrin.h> on s390x. Nothing on other targets.
#pragma once

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <intrin.h>
#elif defined(__aarch64__) || defined(__arm__) || defined(_M_ARM64)
#include <arm_neon.h>
#if defined(__ARM_FEATURE_SVE)
#include <arm_sve.h>
#endif
#elif defined(__powerpc64__) && defined(__VSX__)
#include <altivec.h>
// altivec.h defines these as keywords-turned-macros; they break ordinary
// code that uses the words as identifiers.
#undef bool
#undef vector
#undef pixel
#elif defined(__s390x__) && defined(__VEC__)
#include <vecintrin.h>
#endif
