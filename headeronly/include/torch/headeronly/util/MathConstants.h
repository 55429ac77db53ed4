// Mathematical constants as variable templates: pi<float>, e<double>,
// ln_2<Half>, ... Each is the nearest value of the type (the literal is
// rounded once, from long double precision).
// Header-only: depends on Half.h/BFloat16.h.
#pragma once

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>

namespace torch::headeronly {

namespace detail {
#define TORCH_HEADERONLY_MATH_CONSTANT_(name, value) \
  template <typename T>                              \
  C10_HOST_DEVICE inline constexpr T name() {        \
    return static_cast<T>(value##L);                 \
  }
TORCH_HEADERONLY_MATH_CONSTANT_(e, 2.718281828459045235360287471352662498)
TORCH_HEADERONLY_MATH_CONSTANT_(euler, 0.577215664901532860606512090082402431)
TORCH_HEADERONLY_MATH_CONSTANT_(frac_1_pi, 0.318309886183790671537767526745028724)
TORCH_HEADERONLY_MATH_CONSTANT_(frac_1_sqrt_pi, 0.564189583547756286948079451560772586)
TORCH_HEADERONLY_MATH_CONSTANT_(frac_sqrt_2, 0.707106781186547524400844362104849039)
TORCH_HEADERONLY_MATH_CONSTANT_(frac_sqrt_3, 0.577350269189625764509148780501957456)
TORCH_HEADERONLY_MATH_CONSTANT_(golden_ratio, 1.618033988749894848204586834365638118)
TORCH_HEADERONLY_MATH_CONSTANT_(ln_10, 2.302585092994045684017991454684364208)
TORCH_HEADERONLY_MATH_CONSTANT_(ln_2, 0.693147180559945309417232121458176568)
TORCH_HEADERONLY_MATH_CONSTANT_(log_10_e, 0.434294481903251827651128918916605082)
TORCH_HEADERONLY_MATH_CONSTANT_(log_2_e, 1.442695040888963407359924681001892137)
TORCH_HEADERONLY_MATH_CONSTANT_(pi, 3.141592653589793238462643383279502884)
TORCH_HEADERONLY_MATH_CONSTANT_(sqrt_2, 1.414213562373095048801688724209698079)
TORCH_HEADERONLY_MATH_CONSTANT_(sqrt_3, 1.732050807568877293527446341505872367)
#undef TORCH_HEADERONLY_MATH_CONSTANT_

// The 16-bit types have no constexpr conversion from a floating literal,
// so pi is given by its bits (the nearest value, 3.140625 in both).
template <>
C10_HOST_DEVICE inline constexpr BFloat16 pi<BFloat16>() {
  return BFloat16(0x4049, BFloat16::from_bits());
}
template <>
C10_HOST_DEVICE inline constexpr Half pi<Half>() {
  return Half(0x4248, Half::from_bits());
}
}  // namespace detail

template <typename T>
constexpr T e = detail::e<T>();
template <typename T>
constexpr T euler = detail::euler<T>();
template <typename T>
constexpr T frac_1_pi = detail::frac_1_pi<T>();
template <typename T>
constexpr T frac_1_sqrt_pi = detail::frac_1_sqrt_pi<T>();
template <typename T>
constexpr T frac_sqrt_2 = detail::frac_sqrt_2<T>();
template <typename T>
constexpr T frac_sqrt_3 = detail::frac_sqrt_3<T>();
template <typename T>
constexpr T golden_ratio = detail::golden_ratio<T>();
template <typename T>
constexpr T ln_10 = detail::ln_10<T>();
template <typename T>
constexpr T ln_2 = detail::ln_2<T>();
template <typename T>
constexpr T log_10_e = detail::log_10_e<T>();
template <typename T>
constexpr T log_2_e = detail::log_2_e<T>();
template <typename T>
constexpr T pi = detail::pi<T>();
template <typename T>
constexpr T sqrt_2 = detail::sqrt_2<T>();
template <typename T>
constexpr T sqrt_3 = detail::sqrt_3<T>();

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::e;
using torch::headeronly::euler;
using torch::headeronly::frac_1_pi;
using torch::headeronly::frac_1_sqrt_pi;
using torch::headeronly::frac_sqrt_2;
using torch::headeronly::frac_sqrt_3;
using torch::headeronly::golden_ratio;
using torch::headeronly::ln_10;
using torch::headeronly::ln_2;
using torch::headeronly::log_10_e;
using torch::headeronly::log_2_e;
using torch::headeronly::pi;
using torch::headeronly::sqrt_2;
using torch::headeronly::sqrt_3;
}  // namespace c10
