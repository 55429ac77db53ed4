// is_complex<T>, scalar_value_type<T>, and std::numeric_limits / std::isnan
// for torch::headeronly::complex. Part of complex.h, which includes it at
// its end (include complex.h; including this header alone gives the same).
#pragma once

#include <torch/headeronly/util/complex.h>

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

namespace torch::headeronly {

template <typename T>
struct is_complex : public std::false_type {};
template <typename T>
struct is_complex<std::complex<T>> : public std::true_type {};
template <typename T>
struct is_complex<complex<T>> : public std::true_type {};

// The component type of a complex type; any other type maps to itself.
template <typename T>
struct scalar_value_type {
  using type = T;
};
template <typename T>
struct scalar_value_type<std::complex<T>> {
  using type = T;
};
template <typename T>
struct scalar_value_type<complex<T>> {
  using type = T;
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::is_complex;
using torch::headeronly::scalar_value_type;
}  // namespace c10

namespace std {
// The limits of a complex type are those of its components.
template <typename T>
class numeric_limits<torch::headeronly::complex<T>> : public numeric_limits<T> {};

template <typename T>
bool isnan(const torch::headeronly::complex<T>& v) {
  return std::isnan(v.real()) || std::isnan(v.imag());
}
}  // namespace std
