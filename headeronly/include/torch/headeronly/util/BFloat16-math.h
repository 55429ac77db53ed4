// <cmath> functions for Half and BFloat16 (std::sin(h), std::pow(b, 2.0),
// ...): each computes in float and rounds the result once to the type.
// Declared in namespace std, as PyTorch does, so that generic code calling
// std::exp(x) works for every floating dtype.
// Header-only: depends on Half.h/BFloat16.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>

namespace torch::headeronly {
template <typename T>
struct is_reduced_floating_point
    : std::integral_constant<bool, std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>> {};
template <typename T>
constexpr bool is_reduced_floating_point_v = is_reduced_floating_point<T>::value;
}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::is_reduced_floating_point;
using torch::headeronly::is_reduced_floating_point_v;
}  // namespace c10

#define TORCH_HEADERONLY_IF_REDUCED_(T) \
  typename T, typename std::enable_if_t<torch::headeronly::is_reduced_floating_point_v<T>, int> = 0

namespace std {

// PyTorch also names the trait in std.
using torch::headeronly::is_reduced_floating_point;
using torch::headeronly::is_reduced_floating_point_v;

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T acos(T a) {
  return static_cast<T>(std::acos(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T asin(T a) {
  return static_cast<T>(std::asin(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T atan(T a) {
  return static_cast<T>(std::atan(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T atanh(T a) {
  return static_cast<T>(std::atanh(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T erf(T a) {
  return static_cast<T>(std::erf(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T erfc(T a) {
  return static_cast<T>(std::erfc(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T exp(T a) {
  return static_cast<T>(std::exp(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T expm1(T a) {
  return static_cast<T>(std::expm1(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T log(T a) {
  return static_cast<T>(std::log(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T log10(T a) {
  return static_cast<T>(std::log10(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T log1p(T a) {
  return static_cast<T>(std::log1p(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T log2(T a) {
  return static_cast<T>(std::log2(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T ceil(T a) {
  return static_cast<T>(std::ceil(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T cos(T a) {
  return static_cast<T>(std::cos(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T floor(T a) {
  return static_cast<T>(std::floor(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T nearbyint(T a) {
  return static_cast<T>(std::nearbyint(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T sin(T a) {
  return static_cast<T>(std::sin(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T tan(T a) {
  return static_cast<T>(std::tan(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T sinh(T a) {
  return static_cast<T>(std::sinh(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T cosh(T a) {
  return static_cast<T>(std::cosh(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T tanh(T a) {
  return static_cast<T>(std::tanh(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T trunc(T a) {
  return static_cast<T>(std::trunc(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T lgamma(T a) {
  return static_cast<T>(std::lgamma(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T sqrt(T a) {
  return static_cast<T>(std::sqrt(static_cast<float>(a)));
}

template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline bool isfinite(T a) {
  return std::isfinite(static_cast<float>(a));
}
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T rsqrt(T a) {
  return static_cast<T>(1.0f / std::sqrt(static_cast<float>(a)));
}
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T abs(T a) {
  return static_cast<T>(std::abs(static_cast<float>(a)));
}
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T pow(T a, double b) {
  return static_cast<T>(std::pow(static_cast<float>(a), b));
}
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T pow(T a, T b) {
  return static_cast<T>(std::pow(static_cast<float>(a), static_cast<float>(b)));
}
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
inline T fmod(T a, T b) {
  return static_cast<T>(std::fmod(static_cast<float>(a), static_cast<float>(b)));
}

// The next representable value after `from` in the direction of `to`,
// stepping the 16-bit pattern (sign-magnitude order). NaN in, NaN out;
// from == to returns to.
template <TORCH_HEADERONLY_IF_REDUCED_(T)>
C10_HOST_DEVICE inline T nextafter(T from, T to) {
  const float f = static_cast<float>(from);
  const float t = static_cast<float>(to);
  if (f != f || t != t) {
    return static_cast<T>(f + t);
  }
  if (f == t) {
    return to;
  }
  uint16_t bits = from.x;
  constexpr uint16_t sign_mask = 0x8000u;
  if ((bits & static_cast<uint16_t>(~sign_mask)) == 0) {
    // From a zero, the smallest subnormal with the sign of the direction.
    bits = static_cast<uint16_t>((t < 0.0f ? sign_mask : 0u) | 1u);
  } else if ((f < t) == ((bits & sign_mask) == 0)) {
    // Moving away from zero: the magnitude grows.
    ++bits;
  } else {
    --bits;
  }
  return T(bits, T::from_bits());
}

}  // namespace std

#undef TORCH_HEADERONLY_IF_REDUCED_
