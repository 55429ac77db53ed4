// Sign and range tests that are correct for every arithmetic type, signed
// or not, without the "comparison is always false" warnings a plain
// `x < 0` gives for unsigned types.
// Header-only: depends on the standard library.
#pragma once

#include <limits>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

// x < 0, and false for every unsigned type.
template <typename T>
C10_HOST_DEVICE inline constexpr bool is_negative(const T& x) {
  if constexpr (std::is_unsigned_v<T>) {
    return false;
  } else {
    return x < T(0);
  }
}

// -1, 0 or 1.
template <typename T>
C10_HOST_DEVICE inline constexpr int signum(const T& x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x > T(0) ? 1 : 0;
  } else {
    return (T(0) < x) - (x < T(0));
  }
}

// Whether a and b have different signs (zero counts as non-negative).
template <typename T, typename U>
C10_HOST_DEVICE inline constexpr bool signs_differ(const T& a, const U& b) {
  return is_negative(a) != is_negative(b);
}

// Whether x is above the largest value of Limit, compared without
// converting x to a narrower type first.
template <typename Limit, typename T>
C10_HOST_DEVICE inline constexpr bool greater_than_max(const T& x) {
  constexpr bool can_overflow = std::numeric_limits<T>::digits > std::numeric_limits<Limit>::digits;
  if constexpr (std::is_integral_v<T> && std::is_floating_point_v<Limit>) {
    // Every integer type fits a floating range (the digits comparison
    // would only say the float rounds it).
    return false;
  } else if constexpr (std::is_integral_v<T> && !std::is_integral_v<Limit>) {
    // Half, BFloat16, complex: compared in double, where both are exact
    // enough; converting the limit to T could be out of T's range.
    return static_cast<double>(x) > static_cast<double>(std::numeric_limits<Limit>::max());
  } else if constexpr (can_overflow) {
    return x > static_cast<T>(std::numeric_limits<Limit>::max());
  } else {
    return false;
  }
}

// Whether x is below the lowest value of Limit.
template <typename Limit, typename T>
C10_HOST_DEVICE inline constexpr bool less_than_lowest(const T& x) {
  if constexpr (std::is_integral_v<T> && std::is_floating_point_v<Limit>) {
    return false;
  } else if constexpr (std::is_integral_v<T> && !std::is_integral_v<Limit>) {
    // As greater_than_max: compared in double.
    return static_cast<double>(x) < static_cast<double>(std::numeric_limits<Limit>::lowest());
  } else if constexpr (std::numeric_limits<T>::is_signed &&
                       !std::numeric_limits<Limit>::is_signed) {
    // An unsigned limit's lowest is 0.
    return x < T(0);
  } else if constexpr (!std::numeric_limits<T>::is_signed) {
    return false;
  } else if constexpr (std::numeric_limits<T>::digits > std::numeric_limits<Limit>::digits) {
    return x < static_cast<T>(std::numeric_limits<Limit>::lowest());
  } else {
    return false;
  }
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::greater_than_max;
using torch::headeronly::is_negative;
using torch::headeronly::less_than_lowest;
using torch::headeronly::signs_differ;
using torch::headeronly::signum;
}  // namespace c10
