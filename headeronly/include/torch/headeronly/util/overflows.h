// overflows<To>(value): whether converting value to To would not fit.
// Infinity and NaN fit a type that has them; a complex value with a
// non-zero imaginary part does not fit a real type. For a signed integer
// converted to an unsigned type, negative values that wrap around (a - b
// read as a + (2^n - b)) count as fitting unless strict_unsigned is set.
// Header-only: depends on TypeSafeSignMath.h/complex.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/TypeSafeSignMath.h>
#include <torch/headeronly/util/complex.h>

namespace torch::headeronly {

template <typename To, typename From>
std::enable_if_t<std::is_same_v<From, bool>, bool> overflows(From /*f*/,
                                                             bool /*strict_unsigned*/ = false) {
  return false;
}

template <typename To, typename From>
std::enable_if_t<std::is_integral_v<From> && !std::is_same_v<From, bool>, bool> overflows(
    From f, bool strict_unsigned = false) {
  using limit = std::numeric_limits<typename scalar_value_type<To>::type>;
  if constexpr (!limit::is_signed && std::numeric_limits<From>::is_signed) {
    if (!strict_unsigned) {
      // -f must itself fit: -1 wraps to max, -(max + 1) does not fit.
      return greater_than_max<To>(f) ||
             (is_negative(f) && static_cast<uint64_t>(0) - static_cast<uint64_t>(f) >
                                    static_cast<uint64_t>(limit::max()));
    }
  }
  return less_than_lowest<To>(f) || greater_than_max<To>(f);
}

template <typename To, typename From>
std::enable_if_t<std::is_floating_point_v<From>, bool> overflows(From f,
                                                                 bool /*strict_unsigned*/ = false) {
  using ToScalar = typename scalar_value_type<To>::type;
  using limit = std::numeric_limits<ToScalar>;
  if (limit::has_infinity && std::isinf(static_cast<double>(f))) {
    return false;
  }
  if (!limit::has_quiet_NaN && f != f) {
    return true;
  }
  if constexpr (std::is_integral_v<ToScalar>) {
    // 2^digits is exact in From while max() may not be: compare with it.
    constexpr From upper = static_cast<From>(uint64_t{1} << (limit::digits - 1)) * From{2};
    return f < static_cast<From>(limit::lowest()) || f >= upper;
  } else {
    return f < static_cast<From>(limit::lowest()) || f > static_cast<From>(limit::max());
  }
}

template <typename To, typename From>
std::enable_if_t<is_complex<From>::value, bool> overflows(From f, bool strict_unsigned = false) {
  if (!is_complex<To>::value && f.imag() != 0) {
    return true;
  }
  using ToScalar = typename scalar_value_type<To>::type;
  using FromScalar = typename From::value_type;
  return overflows<ToScalar, FromScalar>(f.real(), strict_unsigned) ||
         overflows<ToScalar, FromScalar>(f.imag(), strict_unsigned);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::overflows;
}  // namespace c10
