// Compiler and platform macros shared by every header-only component.
// Header-only: depends on nothing but the compiler.
//
// The set of macros is PyTorch's (torch/headeronly/macros/Macros.h), so code
// written for its headers finds every name; each is defined here from what
// it means, for this project's targets (Linux/macOS hosts, CUDA devices).
#pragma once

#ifndef C10_USING_CUSTOM_GENERATED_MACROS
#include <torch/headeronly/macros/cmake_macros.h>
#endif

#include <torch/headeronly/macros/Export.h>

#ifdef __cplusplus
#include <cstdint>
#else
#include <stdint.h>
#endif

// ---- sanitizer opt-outs and detection ----------------------------------------
#if defined(__clang__)
#define __ubsan_ignore_float_divide_by_zero__ __attribute__((no_sanitize("float-divide-by-zero")))
#define __ubsan_ignore_undefined__ __attribute__((no_sanitize("undefined")))
#define __ubsan_ignore_signed_int_overflow__ __attribute__((no_sanitize("signed-integer-overflow")))
#define __ubsan_ignore_pointer_overflow__ __attribute__((no_sanitize("pointer-overflow")))
#define __ubsan_ignore_function__ __attribute__((no_sanitize("function")))
#define __ubsan_ignore_float_cast_overflow__ __attribute__((no_sanitize("float-cast-overflow")))
#else
#define __ubsan_ignore_float_divide_by_zero__
#define __ubsan_ignore_undefined__
#define __ubsan_ignore_signed_int_overflow__
#define __ubsan_ignore_pointer_overflow__
#define __ubsan_ignore_function__
#define __ubsan_ignore_float_cast_overflow__
#endif

// 1 when the translation unit is built with AddressSanitizer /
// UndefinedBehaviorSanitizer (clang's __has_feature; gcc's own macro for
// ASan, __has_feature from gcc 14 on), else 0.
#undef C10_ASAN_ENABLED
#undef C10_UBSAN_ENABLED
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define C10_ASAN_ENABLED 1
#endif
#if __has_feature(undefined_behavior_sanitizer)
#define C10_UBSAN_ENABLED 1
#endif
#endif
#if !defined(C10_ASAN_ENABLED) && defined(__SANITIZE_ADDRESS__)
#define C10_ASAN_ENABLED 1
#endif
#ifndef C10_ASAN_ENABLED
#define C10_ASAN_ENABLED 0
#endif
#ifndef C10_UBSAN_ENABLED
#define C10_UBSAN_ENABLED 0
#endif

// ---- small language helpers -----------------------------------------------------
#define C10_DISABLE_COPY_AND_ASSIGN(classname) \
  classname(const classname&) = delete;        \
  classname& operator=(const classname&) = delete

#define C10_MACRO_EXPAND(args) args

// A number unique within the translation unit, and an identifier made
// unique with it (for guard objects declared by macros).
#ifdef __COUNTER__
#define C10_UID __COUNTER__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __COUNTER__)
#else
#define C10_UID __LINE__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __LINE__)
#endif

#if defined(__cplusplus) && defined(__has_cpp_attribute)
#define C10_HAS_CPP_ATTRIBUTE(x) __has_cpp_attribute(x)
#else
#define C10_HAS_CPP_ATTRIBUTE(x) (0)
#endif

#if C10_HAS_CPP_ATTRIBUTE(clang::lifetimebound)
#define C10_LIFETIMEBOUND [[clang::lifetimebound]]
#else
#define C10_LIFETIMEBOUND
#endif

#define C10_NODISCARD [[nodiscard]]
#define C10_UNUSED [[maybe_unused]]

#if !defined(__has_attribute)
#define __has_attribute(x) 0
#endif
#if __has_attribute(used)
#define C10_USED __attribute__((__used__))
#else
#define C10_USED
#endif

#define C10_RESTRICT __restrict

// The namespaces PyTorch code names: c10 holds the vocabulary (as
// using-declarations of torch::headeronly), at sees everything in c10.
#ifdef __cplusplus
namespace c10 {}
namespace c10::cuda {}
namespace c10::hip {}
namespace c10::xpu {}
namespace caffe2 {
using namespace c10;
}
namespace at {
using namespace c10;
}
namespace at::cuda {
using namespace c10::cuda;
using namespace c10::hip;
}  // namespace at::cuda
namespace at::xpu {
using namespace c10::xpu;
}  // namespace at::xpu
#endif

// Host/device annotations: expand to CUDA qualifiers under nvcc/clang-cuda so
// that numeric types and accessors are usable inside kernels, and to nothing
// in plain C++.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#endif

#if defined(__GNUC__) || defined(__clang__)
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_ALWAYS_INLINE inline __attribute__((__always_inline__))
#define C10_ALWAYS_INLINE_ATTRIBUTE __attribute__((__always_inline__))
#define C10_NOINLINE __attribute__((noinline))
#define C10_ATTR_VISIBILITY_HIDDEN __attribute__((__visibility__("hidden")))
#else
#define C10_LIKELY(expr) (expr)
#define C10_UNLIKELY(expr) (expr)
#define C10_ALWAYS_INLINE inline
#define C10_ALWAYS_INLINE_ATTRIBUTE
#define C10_NOINLINE
#define C10_ATTR_VISIBILITY_HIDDEN
#endif
// Forced inline and never exported: for tiny helpers in headers.
#define C10_ERASE C10_ALWAYS_INLINE C10_ATTR_VISIBILITY_HIDDEN

// ---- CUDA launch bounds and warp size -------------------------------------------
#if defined(__CUDACC__) || defined(__HIPCC__)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr uint32_t CUDA_MAX_THREADS_PER_SM = 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || \
                                 __CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1200)
constexpr uint32_t CUDA_MAX_THREADS_PER_SM = 1536;
#else
constexpr uint32_t CUDA_MAX_THREADS_PER_SM = 2048;
#endif
// Every architecture allows 1024 threads per block; 256 is the size used
// when a requested bound is above that.
constexpr uint32_t CUDA_MAX_THREADS_PER_BLOCK = 1024;
constexpr uint32_t CUDA_THREADS_PER_BLOCK_FALLBACK = 256;
// Kept as macros: __launch_bounds__ cannot take template-dependent constexpr
// values.
#define C10_MAX_THREADS_PER_BLOCK(val) \
  (((val) <= CUDA_MAX_THREADS_PER_BLOCK) ? (val) : CUDA_THREADS_PER_BLOCK_FALLBACK)
#define C10_MIN_BLOCKS_PER_SM(threads_per_block, blocks_per_sm)        \
  ((((threads_per_block) * (blocks_per_sm) <= CUDA_MAX_THREADS_PER_SM) \
        ? (blocks_per_sm)                                              \
        : ((CUDA_MAX_THREADS_PER_SM + (threads_per_block)-1) / (threads_per_block))))
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))))
#define C10_LAUNCH_BOUNDS_2(max_threads_per_block, min_blocks_per_sm)     \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))), \
                    (C10_MIN_BLOCKS_PER_SM((max_threads_per_block), (min_blocks_per_sm))))
#endif

#ifdef __HIPCC__
#define C10_HIP_HOST_DEVICE __host__ __device__
#else
#define C10_HIP_HOST_DEVICE
#endif

// NVIDIA warps are 32 threads (this project builds no ROCm backend, whose
// warps may be 64).
#define C10_WARP_SIZE 32
#define C10_WARP_SIZE_LOWER_BOUND 32
#define C10_WARP_SIZE_UPPER_BOUND 32

// ---- device-side assertions -------------------------------------------------------
// Checked even under NDEBUG: a failing kernel assertion reports the
// condition and location through the C runtime's __assert_fail, which CUDA
// also provides on the device (it stops the kernel; the host sees
// cudaErrorAssert).
#if defined(__APPLE__) || defined(__ANDROID__) || defined(__FreeBSD__)
#define CUDA_KERNEL_ASSERT(cond)
#define CUDA_KERNEL_ASSERT_MSG(cond, msg)
#define CUDA_KERNEL_ASSERT_PRINTF(cond, msg, ...)
#define SYCL_KERNEL_ASSERT(cond)
#else
#include <assert.h>
#include <stdio.h>
// glibc's <assert.h> hides __assert_fail under NDEBUG, so it is declared
// here, exactly as glibc does (under nvcc for host and device, as CUDA's
// runtime declares it); other C libraries declare it in <assert.h>
// whatever NDEBUG says.
#if defined(__GLIBC__) && (defined(__CUDACC__) || defined(__HIPCC__))
extern "C" __host__ __device__ void __assert_fail(const char* assertion, const char* file,
                                                  unsigned int line, const char* function) noexcept
    __attribute__((__noreturn__));
#elif defined(__GLIBC__)
#ifdef __cplusplus
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line,
                              const char* function) noexcept __attribute__((__noreturn__));
#else
extern void __assert_fail(const char* assertion, const char* file, unsigned int line,
                          const char* function) __attribute__((__noreturn__));
#endif
#endif
#define CUDA_KERNEL_ASSERT(cond)                                                   \
  if (C10_UNLIKELY(!(cond))) {                                                     \
    __assert_fail(#cond, __FILE__, static_cast<unsigned int>(__LINE__), __func__); \
  }
#define CUDA_KERNEL_ASSERT_MSG(cond, msg)                                        \
  if (C10_UNLIKELY(!(cond))) {                                                   \
    __assert_fail(msg, __FILE__, static_cast<unsigned int>(__LINE__), __func__); \
  }
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define CUDA_KERNEL_ASSERT_PRINTF(cond, msg, ...)                                  \
  if (C10_UNLIKELY(!(cond))) {                                                     \
    printf("[CUDA_KERNEL_ASSERT] " __FILE__ ":" C10_STRINGIZE(__LINE__)     \
           ": %s: block: [%d,%d,%d], thread: [%d,%d,%d]: Assertion failed: " \
           "`%s`: " msg "\n",                                                \
           __func__, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,        \
           threadIdx.y, threadIdx.z, #cond, ##__VA_ARGS__);      \
    __assert_fail(#cond, __FILE__, static_cast<unsigned int>(__LINE__), __func__); \
  }
#else
#define CUDA_KERNEL_ASSERT_PRINTF(cond, msg, ...)                                  \
  if (C10_UNLIKELY(!(cond))) {                                                     \
    printf("[CUDA_KERNEL_ASSERT] " __FILE__                                        \
           ":" C10_STRINGIZE(__LINE__) ": %s: Assertion failed: `%s`: " msg "\n",  \
           __func__, #cond, ##__VA_ARGS__);                                        \
    __assert_fail(#cond, __FILE__, static_cast<unsigned int>(__LINE__), __func__); \
  }
#endif
#define SYCL_KERNEL_ASSERT(cond) CUDA_KERNEL_ASSERT(cond)
#endif

// With C10_ENABLE_VERBOSE_ASSERT the extra arguments are printed.
#ifdef C10_ENABLE_VERBOSE_ASSERT
#define CUDA_KERNEL_ASSERT_VERBOSE(cond, ...) CUDA_KERNEL_ASSERT_PRINTF(cond, __VA_ARGS__)
#else
#define CUDA_KERNEL_ASSERT_VERBOSE(cond, ...) CUDA_KERNEL_ASSERT(cond)
#endif

// ---- platform --------------------------------------------------------------------
#ifdef __APPLE__
#include <TargetConditionals.h>
#endif
#if defined(__ANDROID__)
#define C10_ANDROID 1
#define C10_MOBILE 1
#elif defined(__APPLE__) && (TARGET_IPHONE_SIMULATOR || TARGET_OS_SIMULATOR || TARGET_OS_IPHONE)
#define C10_IOS 1
#define C10_MOBILE 1
#endif
#if defined(C10_MOBILE) && C10_MOBILE
#define C10_ALWAYS_INLINE_UNLESS_MOBILE inline
#else
#define C10_ALWAYS_INLINE_UNLESS_MOBILE C10_ALWAYS_INLINE
#endif

// Spellings kept for code written when some compilers lacked these.
#define CONSTEXPR_EXCEPT_WIN_CUDA constexpr
#define C10_HOST_CONSTEXPR_EXCEPT_WIN_CUDA constexpr
#define STATIC_CONSTEXPR_STR_INL_EXCEPT_WIN_CUDA(field, val) \
  static constexpr const char field[] = val;
#define STATIC_CONST_STR_OUT_OF_LINE_FOR_WIN_CUDA(cls, field, val)

#ifndef HAS_DEMANGLE
#if defined(__ANDROID__) || defined(_WIN32) || defined(__EMSCRIPTEN__) || defined(C10_IOS)
#define HAS_DEMANGLE 0
#else
#define HAS_DEMANGLE 1
#endif
#endif

// ---- diagnostics ---------------------------------------------------------------
#define _C10_PRAGMA__(string) _Pragma(#string)
#define _C10_PRAGMA_(string) _C10_PRAGMA__(string)
#ifdef __clang__
#define C10_CLANG_DIAGNOSTIC_PUSH() _Pragma("clang diagnostic push")
#define C10_CLANG_DIAGNOSTIC_POP() _Pragma("clang diagnostic pop")
#define C10_CLANG_DIAGNOSTIC_IGNORE(flag) _C10_PRAGMA_(clang diagnostic ignored flag)
#define C10_CLANG_HAS_WARNING(flag) __has_warning(flag)
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning)         \
  _C10_PRAGMA_(clang diagnostic push)                               \
  _C10_PRAGMA_(clang diagnostic ignored "-Wunknown-warning-option") \
  _C10_PRAGMA_(clang diagnostic ignored warning)
#define C10_DIAGNOSTIC_POP() _C10_PRAGMA_(clang diagnostic pop)
#elif defined(__GNUC__)
#define C10_CLANG_DIAGNOSTIC_PUSH()
#define C10_CLANG_DIAGNOSTIC_POP()
#define C10_CLANG_DIAGNOSTIC_IGNORE(flag)
#define C10_CLANG_HAS_WARNING(flag) 0
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning) \
  _C10_PRAGMA_(GCC diagnostic push)                         \
  _C10_PRAGMA_(GCC diagnostic ignored "-Wpragmas")          \
  _C10_PRAGMA_(GCC diagnostic ignored warning)
#define C10_DIAGNOSTIC_POP() _C10_PRAGMA_(GCC diagnostic pop)
#else
#define C10_CLANG_DIAGNOSTIC_PUSH()
#define C10_CLANG_DIAGNOSTIC_POP()
#define C10_CLANG_DIAGNOSTIC_IGNORE(flag)
#define C10_CLANG_HAS_WARNING(flag) 0
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(warning)
#define C10_DIAGNOSTIC_POP()
#endif

// 1 where returning a local by name needs std::move to avoid a copy
// (compilers before C++20's implicit move rules).
#if (defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13 && __cplusplus < 202002L) || \
    (defined(__clang_major__) && __clang_major__ < 13)
#define C10_RETURN_MOVE_IF_OLD_COMPILER 1
#else
#define C10_RETURN_MOVE_IF_OLD_COMPILER 0
#endif

// A branch hint, except under nvcc, which rejects __builtin_expect in
// constant-evaluated contexts.
#if defined(__CUDACC__)
#define C10_UNLIKELY_OR_CONST(e) e
#else
#define C10_UNLIKELY_OR_CONST(e) C10_UNLIKELY(e)
#endif

#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_CONCATENATE_IMPL(a, b) a##b
#define C10_CONCATENATE(a, b) C10_CONCATENATE_IMPL(a, b)

// Inline code in extension-facing headers lives in a namespace with hidden
// visibility, so two plugins built against different SDK versions never
// interpose each other's copies of the same inline function.
// HIDDEN_NAMESPACE_BEGIN(torch, stable, detail) opens torch::stable::detail
// (one to four names) with the innermost hidden; HIDDEN_NAMESPACE_END with
// the same names closes them.
#define C10_NS_PICK_(_1, _2, _3, _4, NAME, ...) NAME
#define C10_NS_OPEN_1_(attr, a) namespace a attr {
#define C10_NS_OPEN_2_(attr, a, b) \
  namespace a {                    \
  C10_NS_OPEN_1_(attr, b)
#define C10_NS_OPEN_3_(attr, a, b, c) \
  namespace a {                       \
  C10_NS_OPEN_2_(attr, b, c)
#define C10_NS_OPEN_4_(attr, a, b, c, d) \
  namespace a {                          \
  C10_NS_OPEN_3_(attr, b, c, d)
#define C10_NS_CLOSE_1_(a) }
#define C10_NS_CLOSE_2_(a, b) \
  }                           \
  }
#define C10_NS_CLOSE_3_(a, b, c) \
  }                              \
  }                              \
  }
#define C10_NS_CLOSE_4_(a, b, c, d) \
  }                                 \
  }                                 \
  }                                 \
  }

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define C10_HIDDEN_ATTR_ __attribute__((visibility("hidden")))
#else
#define C10_HIDDEN_ATTR_
#endif

#define HIDDEN_NAMESPACE_BEGIN(...)                                                         \
  C10_NS_PICK_(__VA_ARGS__, C10_NS_OPEN_4_, C10_NS_OPEN_3_, C10_NS_OPEN_2_, C10_NS_OPEN_1_) \
  (C10_HIDDEN_ATTR_, __VA_ARGS__)
#define HIDDEN_NAMESPACE_END(...)                                                               \
  C10_NS_PICK_(__VA_ARGS__, C10_NS_CLOSE_4_, C10_NS_CLOSE_3_, C10_NS_CLOSE_2_, C10_NS_CLOSE_1_) \
  (__VA_ARGS__)
