// torch::headeronly::bit_cast: reinterpret an object's bytes as another
// trivially copyable type of the same size. The numeric types need it to get
// at IEEE bit patterns without the undefined behaviour of union or pointer
// punning, and without requiring C++20's std::bit_cast.
#pragma once

#include <cstring>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>

// The builtin makes bit_cast usable in constant expressions (GCC >= 11,
// Clang >= 9, and the EDG front end nvcc uses). Without it we fall back to
// memcpy, which is equally fast after optimisation but not constexpr, so the
// conversions built on top drop their constexpr too.
#if defined(__has_builtin)
#if __has_builtin(__builtin_bit_cast)
#define TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST 1
#endif
#endif
#if !defined(TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST) && defined(_MSC_VER) && _MSC_VER >= 1926
#define TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST 1
#endif

// 1 when the standard library has std::bit_cast (C++20).
#if defined(__has_include)
#if __has_include(<bit>)
#include <bit>
#endif
#endif
#if defined(__cpp_lib_bit_cast) && __cpp_lib_bit_cast >= 201806L
#define C10_HAVE_STD_BIT_CAST 1
#else
#define C10_HAVE_STD_BIT_CAST 0
#endif

#if defined(TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST)
#define TORCH_HEADERONLY_BIT_CAST_CONSTEXPR constexpr
#else
#define TORCH_HEADERONLY_BIT_CAST_CONSTEXPR
#endif

namespace torch::headeronly {

template <typename To, typename From>
C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR
    std::enable_if_t<sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                         std::is_trivially_copyable_v<From>,
                     To>
    bit_cast(const From& src) noexcept {
#if defined(TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST)
  return __builtin_bit_cast(To, src);
#else
  static_assert(std::is_default_constructible_v<To>,
                "the memcpy fallback of bit_cast needs a default constructor");
  To dst;
  std::memcpy(&dst, &src, sizeof(To));
  return dst;
#endif
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::bit_cast;
}  // namespace c10
