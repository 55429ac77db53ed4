// st::Scalar: one number of category bool, integer (int64), floating
// (double) or complex (complex<double>), as passed to ops like add(t, 2).
// to<T>() converts with an overflow check (st::Error "value cannot be
// converted to type int8_t without overflow").
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include <st/core/error.h>
#include <st/core/export.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {

namespace detail {
[[noreturn]] ST_API void throw_scalar_overflow(const char* type_name);

template <typename T>
constexpr const char* scalar_type_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32_t";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64_t";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return "c10::complex<float>";
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return "c10::complex<double>";
  else if constexpr (std::is_same_v<T, torch::headeronly::Half>)
    return "at::Half";
  else if constexpr (std::is_same_v<T, torch::headeronly::BFloat16>)
    return "at::BFloat16";
  else if constexpr (std::is_same_v<T, torch::headeronly::complex<float>>)
    return "c10::complex<float>";
  else if constexpr (std::is_same_v<T, torch::headeronly::complex<double>>)
    return "c10::complex<double>";
  else if constexpr (std::is_same_v<T, torch::headeronly::complex<torch::headeronly::Half>>)
    return "c10::complex<c10::Half>";
  else
    return "the requested type";
}
}  // namespace detail

class ST_API Scalar {
 public:
  enum class Tag : uint8_t { Bool, Int, Double, Complex };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : tag_(Tag::Bool) { v_.i = v ? 1 : 0; }
  // Every integer type goes through int64; uint64 above INT64_MAX is an
  // error (st::Error), as PyTorch refuses it.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag_(Tag::Int) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      ST_CHECK(v <= static_cast<T>(INT64_MAX), "Scalar: unsigned value ", v,
               " does not fit in int64");
    }
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : tag_(Tag::Double) {
    v_.d = static_cast<double>(v);
  }
  template <typename T>
  Scalar(std::complex<T> v) : tag_(Tag::Complex) {
    v_.z[0] = static_cast<double>(v.real());
    v_.z[1] = static_cast<double>(v.imag());
  }

  Tag tag() const noexcept { return tag_; }
  // The dtype of the stored value: Bool, Long, Double or ComplexDouble.
  torch::headeronly::ScalarType type() const noexcept;

  bool isBoolean() const noexcept { return tag_ == Tag::Bool; }
  bool isIntegral(bool includeBool) const noexcept {
    return tag_ == Tag::Int || (includeBool && tag_ == Tag::Bool);
  }
  bool isFloatingPoint() const noexcept { return tag_ == Tag::Double; }
  bool isComplex() const noexcept { return tag_ == Tag::Complex; }

  // Checked conversion to an arithmetic type or std::complex.
  template <typename T>
  T to() const;

  bool toBool() const { return to<bool>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int32_t toInt() const { return to<int32_t>(); }
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  std::complex<double> toComplexDouble() const { return to<std::complex<double>>(); }

  // Unchecked views of the payload.
  int64_t raw_int() const noexcept { return v_.i; }
  double raw_double() const noexcept { return v_.d; }

  Scalar operator-() const;
  // Same category and value (1 != 1.0 here, like PyTorch's equal()).
  bool equal(const Scalar& other) const noexcept;

 private:
  template <typename T>
  static T from_double(double d);
  template <typename T>
  static T from_int(int64_t i);

  Tag tag_;
  union {
    int64_t i;
    double d;
    double z[2];
  } v_;
};

ST_API std::ostream& operator<<(std::ostream& os, const Scalar& s);

// Integer targets: signed types take their range; unsigned types also take
// negative values whose magnitude fits (they wrap, as in PyTorch: -1 -> 255).
template <typename T>
T Scalar::from_int(int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return i != 0;
  } else if constexpr (std::is_integral_v<T>) {
    bool fits;
    if constexpr (std::is_unsigned_v<T>) {
      const uint64_t magnitude = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
      fits = magnitude <= static_cast<uint64_t>(std::numeric_limits<T>::max());
    } else {
      fits = i >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
             i <= static_cast<int64_t>(std::numeric_limits<T>::max());
    }
    if (!fits) {
      detail::throw_scalar_overflow(detail::scalar_type_name<T>());
    }
    return static_cast<T>(i);
  } else {
    return static_cast<T>(i);
  }
}

template <typename T>
T Scalar::from_double(double d) {
  if constexpr (std::is_same_v<T, bool>) {
    return d != 0;
  } else if constexpr (std::is_integral_v<T>) {
    // 2^bits as a double is exact, so the bounds below are exact too.
    const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);  // max + 1
    bool fits;
    if constexpr (std::is_unsigned_v<T>) {
      fits = std::fabs(d) < limit;
    } else {
      fits = d >= -limit && d < limit;
    }
    if (!fits) {  // also catches NaN
      detail::throw_scalar_overflow(detail::scalar_type_name<T>());
    }
    if constexpr (std::is_unsigned_v<T>) {
      if (d < 0) {
        return static_cast<T>(static_cast<int64_t>(d));
      }
    }
    return static_cast<T>(d);
  } else {
    // Floating: finite values beyond the range overflow; inf/nan pass.
    if (std::isfinite(d) && std::fabs(d) > static_cast<double>(std::numeric_limits<T>::max())) {
      detail::throw_scalar_overflow(detail::scalar_type_name<T>());
    }
    return static_cast<T>(d);
  }
}

template <typename T>
struct is_headeronly_complex : std::false_type {};
template <typename V>
struct is_headeronly_complex<torch::headeronly::complex<V>> : std::true_type {};

template <typename T>
T Scalar::to() const {
  if constexpr (std::is_same_v<T, torch::headeronly::Half> ||
                std::is_same_v<T, torch::headeronly::BFloat16>) {
    // Reduced floats: convert through float, then check the narrowing.
    const float f = to<float>();
    const T v(f);
    if (std::isfinite(f) && !std::isfinite(static_cast<float>(v))) {
      detail::throw_scalar_overflow(detail::scalar_type_name<T>());
    }
    return v;
  } else if constexpr (is_headeronly_complex<T>::value) {
    using V = decltype(std::declval<T>().real());
    if constexpr (std::is_same_v<V, torch::headeronly::Half>) {
      const auto z = to<std::complex<float>>();
      const V re(z.real()), im(z.imag());
      if ((std::isfinite(z.real()) && !std::isfinite(static_cast<float>(re))) ||
          (std::isfinite(z.imag()) && !std::isfinite(static_cast<float>(im)))) {
        detail::throw_scalar_overflow(detail::scalar_type_name<T>());
      }
      return T(re, im);
    } else {
      const auto z = to<std::complex<V>>();
      return T(z.real(), z.imag());
    }
  } else if constexpr (std::is_same_v<T, std::complex<double>> ||
                       std::is_same_v<T, std::complex<float>>) {
    using V = typename T::value_type;
    switch (tag_) {
      case Tag::Bool:
      case Tag::Int:
        return T(from_int<V>(v_.i), 0);
      case Tag::Double:
        return T(from_double<V>(v_.d), 0);
      case Tag::Complex:
        return T(from_double<V>(v_.z[0]), from_double<V>(v_.z[1]));
    }
    return T();
  } else {
    static_assert(std::is_arithmetic_v<T>, "Scalar::to<T>: T must be arithmetic or std::complex");
    switch (tag_) {
      case Tag::Bool:
      case Tag::Int:
        return from_int<T>(v_.i);
      case Tag::Double:
        return from_double<T>(v_.d);
      case Tag::Complex:
        // A complex value converts to a real type only without imaginary
        // part (bool: non-zero test).
        if constexpr (std::is_same_v<T, bool>) {
          return v_.z[0] != 0 || v_.z[1] != 0;
        } else {
          if (v_.z[1] != 0) {
            detail::throw_scalar_overflow(detail::scalar_type_name<T>());
          }
          return from_double<T>(v_.z[0]);
        }
    }
    return T();
  }
}

}  // namespace st
