// _isnan / _isinf for every numeric type of the SDK, usable in host and
// device code: integers are never NaN or infinite, complex values are NaN
// when either component is, and the reduced floating types answer from
// their bits (Float8 formats without infinities say false).
// Header-only: depends on the numeric type headers.
#pragma once

#include <cmath>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/complex.h>

namespace torch::headeronly {

template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
inline C10_HOST_DEVICE bool _isnan(T /*val*/) {
  return false;
}

template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
inline C10_HOST_DEVICE bool _isnan(T val) {
#if defined(__CUDACC__) || defined(__HIPCC__)
  return ::isnan(val);
#else
  return std::isnan(val);
#endif
}

template <typename T, std::enable_if_t<is_complex<T>::value, int> = 0>
inline C10_HOST_DEVICE bool _isnan(T val) {
  return _isnan(val.real()) || _isnan(val.imag());
}

template <typename T, std::enable_if_t<std::is_same_v<T, Half>, int> = 0>
inline C10_HOST_DEVICE bool _isnan(T val) {
  // Exponent all ones with a non-zero mantissa.
  return (val.x & 0x7FFFu) > 0x7C00u;
}

template <typename T, std::enable_if_t<std::is_same_v<T, BFloat16>, int> = 0>
inline C10_HOST_DEVICE bool _isnan(T val) {
  return (val.x & 0x7FFFu) > 0x7F80u;
}

template <
    typename T,
    std::enable_if_t<std::is_same_v<T, Float8_e5m2> || std::is_same_v<T, Float8_e4m3fn> ||
                         std::is_same_v<T, Float8_e5m2fnuz> || std::is_same_v<T, Float8_e4m3fnuz>,
                     int> = 0>
inline C10_HOST_DEVICE bool _isnan(T val) {
  return val.isnan();
}

template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
inline C10_HOST_DEVICE bool _isinf(T /*val*/) {
  return false;
}

template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
inline C10_HOST_DEVICE bool _isinf(T val) {
#if defined(__CUDACC__) || defined(__HIPCC__)
  return ::isinf(val);
#else
  return std::isinf(val);
#endif
}

inline C10_HOST_DEVICE bool _isinf(Half val) { return (val.x & 0x7FFFu) == 0x7C00u; }
inline C10_HOST_DEVICE bool _isinf(BFloat16 val) { return (val.x & 0x7FFFu) == 0x7F80u; }
inline C10_HOST_DEVICE bool _isinf(Float8_e5m2 val) { return val.isinf(); }
// These formats have no infinities.
inline C10_HOST_DEVICE bool _isinf(Float8_e4m3fn /*val*/) { return false; }
inline C10_HOST_DEVICE bool _isinf(Float8_e5m2fnuz /*val*/) { return false; }
inline C10_HOST_DEVICE bool _isinf(Float8_e4m3fnuz /*val*/) { return false; }

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::_isinf;
using torch::headeronly::_isnan;
}  // namespace c10
