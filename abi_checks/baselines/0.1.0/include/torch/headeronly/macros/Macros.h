// Compiler and platform macros shared by every header-only component.
// Header-only: depends on nothing but the compiler.
#pragma once

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
#define C10_NOINLINE __attribute__((noinline))
#else
#define C10_LIKELY(expr) (expr)
#define C10_UNLIKELY(expr) (expr)
#define C10_ALWAYS_INLINE inline
#define C10_NOINLINE
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
#define C10_NS_OPEN_2_(attr, a, b) namespace a { C10_NS_OPEN_1_(attr, b)
#define C10_NS_OPEN_3_(attr, a, b, c) namespace a { C10_NS_OPEN_2_(attr, b, c)
#define C10_NS_OPEN_4_(attr, a, b, c, d) namespace a { C10_NS_OPEN_3_(attr, b, c, d)
#define C10_NS_CLOSE_1_(a) }
#define C10_NS_CLOSE_2_(a, b) }}
#define C10_NS_CLOSE_3_(a, b, c) }}}
#define C10_NS_CLOSE_4_(a, b, c, d) }}}}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define C10_HIDDEN_ATTR_ __attribute__((visibility("hidden")))
#else
#define C10_HIDDEN_ATTR_
#endif

#define HIDDEN_NAMESPACE_BEGIN(...)                                   \
  C10_NS_PICK_(__VA_ARGS__, C10_NS_OPEN_4_, C10_NS_OPEN_3_,           \
               C10_NS_OPEN_2_, C10_NS_OPEN_1_)(C10_HIDDEN_ATTR_, __VA_ARGS__)
#define HIDDEN_NAMESPACE_END(...)                                     \
  C10_NS_PICK_(__VA_ARGS__, C10_NS_CLOSE_4_, C10_NS_CLOSE_3_,         \
               C10_NS_CLOSE_2_, C10_NS_CLOSE_1_)(__VA_ARGS__)
