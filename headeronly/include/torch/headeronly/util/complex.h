// torch::headeronly::complex<T> (also c10::complex<T>): the element type of
// complex tensors. std::complex is not used because its member functions
// are not __host__ __device__ and its layout/alignment is not guaranteed
// to be the {real, imag} pair with 2*sizeof(T) alignment that vectorised
// kernels and the stable ABI rely on. complex<Half> computes through
// complex<float> and rounds once per operation, as PyTorch does.
#pragma once

#include <cfloat>
#include <cmath>
#include <complex>
#include <istream>
#include <ostream>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>

namespace torch::headeronly {

template <typename T>
struct complex;

namespace detail {
// Conversions that lose nothing are implicit (as between std::complex
// specialisations); everything else must be spelled out.
template <typename From, typename To>
struct complex_is_widening : std::false_type {};
template <>
struct complex_is_widening<float, double> : std::true_type {};
template <>
struct complex_is_widening<Half, float> : std::true_type {};
template <>
struct complex_is_widening<Half, double> : std::true_type {};
template <>
struct complex_is_widening<BFloat16, float> : std::true_type {};
template <>
struct complex_is_widening<BFloat16, double> : std::true_type {};

// Half and BFloat16 convert only to float, so they take that step first.
template <typename T, typename U>
C10_HOST_DEVICE constexpr T complex_component_cast(const U& u) {
  if constexpr (std::is_same_v<U, Half> || std::is_same_v<U, BFloat16>) {
    return static_cast<T>(static_cast<float>(u));
  } else {
    return static_cast<T>(u);
  }
}
}  // namespace detail

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  C10_HOST_DEVICE constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  template <typename U>
  C10_HOST_DEVICE explicit constexpr complex(const std::complex<U>& other)
      : real_(static_cast<T>(other.real())), imag_(static_cast<T>(other.imag())) {}

  template <typename U, std::enable_if_t<detail::complex_is_widening<U, T>::value, int> = 0>
  C10_HOST_DEVICE constexpr complex(const complex<U>& other)
      : real_(detail::complex_component_cast<T>(other.real())),
        imag_(detail::complex_component_cast<T>(other.imag())) {}
  template <
      typename U,
      std::enable_if_t<!detail::complex_is_widening<U, T>::value && !std::is_same_v<U, T>, int> = 0>
  C10_HOST_DEVICE explicit constexpr complex(const complex<U>& other)
      : real_(detail::complex_component_cast<T>(other.real())),
        imag_(detail::complex_component_cast<T>(other.imag())) {}

  C10_HOST_DEVICE constexpr T real() const { return real_; }
  C10_HOST_DEVICE constexpr void real(T value) { real_ = value; }
  C10_HOST_DEVICE constexpr T imag() const { return imag_; }
  C10_HOST_DEVICE constexpr void imag(T value) { imag_ = value; }

  C10_HOST_DEVICE constexpr complex& operator=(T re) {
    real_ = re;
    imag_ = T(0);
    return *this;
  }
  C10_HOST_DEVICE constexpr complex& operator+=(T re) {
    real_ += re;
    return *this;
  }
  C10_HOST_DEVICE constexpr complex& operator-=(T re) {
    real_ -= re;
    return *this;
  }
  C10_HOST_DEVICE constexpr complex& operator*=(T re) {
    real_ *= re;
    imag_ *= re;
    return *this;
  }
  C10_HOST_DEVICE constexpr complex& operator/=(T re) {
    real_ /= re;
    imag_ /= re;
    return *this;
  }

  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator=(const complex<U>& rhs) {
    real_ = static_cast<T>(rhs.real());
    imag_ = static_cast<T>(rhs.imag());
    return *this;
  }
  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator+=(const complex<U>& rhs) {
    real_ += static_cast<T>(rhs.real());
    imag_ += static_cast<T>(rhs.imag());
    return *this;
  }
  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator-=(const complex<U>& rhs) {
    real_ -= static_cast<T>(rhs.real());
    imag_ -= static_cast<T>(rhs.imag());
    return *this;
  }
  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator*=(const complex<U>& rhs) {
    // (a + bi)(c + di) = (ac - bd) + (ad + bc)i
    const T a = real_;
    const T b = imag_;
    const T c = static_cast<T>(rhs.real());
    const T d = static_cast<T>(rhs.imag());
    real_ = a * c - b * d;
    imag_ = a * d + b * c;
    return *this;
  }
  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator/=(const complex<U>& rhs) {
    // Smith's algorithm: divide by the larger of |c|, |d| first so that the
    // intermediate c*c + d*d of the textbook formula cannot overflow or
    // underflow for moderate operands.
    const T a = real_;
    const T b = imag_;
    const T c = static_cast<T>(rhs.real());
    const T d = static_cast<T>(rhs.imag());
    const T abs_c = c < T(0) ? -c : c;
    const T abs_d = d < T(0) ? -d : d;
    if (abs_c >= abs_d) {
      if (abs_c == T(0) && abs_d == T(0)) {
        // Division by zero: propagate Inf/NaN per component.
        real_ = a / abs_c;
        imag_ = b / abs_d;
      } else {
        const T ratio = d / c;
        const T scale = T(1) / (c + d * ratio);
        real_ = (a + b * ratio) * scale;
        imag_ = (b - a * ratio) * scale;
      }
    } else {
      const T ratio = c / d;
      const T scale = T(1) / (c * ratio + d);
      real_ = (a * ratio + b) * scale;
      imag_ = (b * ratio - a) * scale;
    }
    return *this;
  }

  template <typename U>
  C10_HOST_DEVICE constexpr complex& operator=(const std::complex<U>& rhs) {
    real_ = static_cast<T>(rhs.real());
    imag_ = static_cast<T>(rhs.imag());
    return *this;
  }

  template <typename U>
  explicit constexpr operator std::complex<U>() const {
    return std::complex<U>(static_cast<U>(real_), static_cast<U>(imag_));
  }

  C10_HOST_DEVICE explicit constexpr operator bool() const {
    return real_ != T(0) || imag_ != T(0);
  }
};

// complex<Half> and complex<BFloat16> (BComplex32) store two 16-bit halves
// but compute in float: each operation rounds once, at the end, instead of
// after every partial product. Both specializations declare the same
// members, spelled once here.
#define TORCH_HEADERONLY_FLOAT_COMPUTED_COMPLEX_MEMBERS(N)                                  \
  using value_type = N;                                                                     \
                                                                                            \
  N real_;                                                                                  \
  N imag_;                                                                                  \
                                                                                            \
  complex() = default;                                                                      \
  C10_HOST_DEVICE constexpr complex(const N& re, const N& im) : real_(re), imag_(im) {}     \
  C10_HOST_DEVICE TORCH_HEADERONLY_BIT_CAST_CONSTEXPR complex(const N& re)                  \
      : real_(re), imag_(N(0.0f)) {}                                                        \
  C10_HOST_DEVICE explicit complex(const complex<float>& value)                             \
      : real_(value.real()), imag_(value.imag()) {}                                         \
  C10_HOST_DEVICE explicit complex(const complex<double>& value)                            \
      : real_(static_cast<float>(value.real())), imag_(static_cast<float>(value.imag())) {} \
                                                                                            \
  C10_HOST_DEVICE constexpr N real() const { return real_; }                                \
  C10_HOST_DEVICE constexpr void real(N value) { real_ = value; }                           \
  C10_HOST_DEVICE constexpr N imag() const { return imag_; }                                \
  C10_HOST_DEVICE constexpr void imag(N value) { imag_ = value; }                           \
                                                                                            \
  C10_HOST_DEVICE explicit operator complex<float>() const {                                \
    return complex<float>(real_, imag_);                                                    \
  }                                                                                         \
                                                                                            \
  /* The float operators of complex<float> are declared further down, so */                 \
  /* these use its compound-assignment members. */                                          \
  C10_HOST_DEVICE complex& operator+=(const complex& other) {                               \
    complex<float> r = to_float();                                                          \
    r += other.to_float();                                                                  \
    return *this = complex(r);                                                              \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator-=(const complex& other) {                               \
    complex<float> r = to_float();                                                          \
    r -= other.to_float();                                                                  \
    return *this = complex(r);                                                              \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator*=(const complex& other) {                               \
    complex<float> r = to_float();                                                          \
    r *= other.to_float();                                                                  \
    return *this = complex(r);                                                              \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator/=(const complex& other) {                               \
    complex<float> r = to_float();                                                          \
    r /= other.to_float();                                                                  \
    return *this = complex(r);                                                              \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator+=(const N& re) {                                        \
    real_ = N(static_cast<float>(real_) + static_cast<float>(re));                          \
    return *this;                                                                           \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator-=(const N& re) {                                        \
    real_ = N(static_cast<float>(real_) - static_cast<float>(re));                          \
    return *this;                                                                           \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator*=(const N& re) {                                        \
    complex<float> r = to_float();                                                          \
    r *= static_cast<float>(re);                                                            \
    return *this = complex(r);                                                              \
  }                                                                                         \
  C10_HOST_DEVICE complex& operator/=(const N& re) {                                        \
    complex<float> r = to_float();                                                          \
    r /= static_cast<float>(re);                                                            \
    return *this = complex(r);                                                              \
  }                                                                                         \
                                                                                            \
  C10_HOST_DEVICE explicit operator bool() const {                                          \
    return static_cast<float>(real_) != 0.0f || static_cast<float>(imag_) != 0.0f;          \
  }                                                                                         \
                                                                                            \
 private:                                                                                   \
  C10_HOST_DEVICE complex<float> to_float() const { return complex<float>(real_, imag_); }

template <>
struct alignas(4) complex<Half> {
  TORCH_HEADERONLY_FLOAT_COMPUTED_COMPLEX_MEMBERS(Half)
};

template <>
struct alignas(4) complex<BFloat16> {
  TORCH_HEADERONLY_FLOAT_COMPUTED_COMPLEX_MEMBERS(BFloat16)
};

#undef TORCH_HEADERONLY_FLOAT_COMPUTED_COMPLEX_MEMBERS

// ---- unary and binary operators -------------------------------------------

template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator+(const complex<T>& v) {
  return v;
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator-(const complex<T>& v) {
  return complex<T>(-v.real(), -v.imag());
}

#define TORCH_HEADERONLY_COMPLEX_BINARY_OP(OP)                                                     \
  template <typename T>                                                                            \
  C10_HOST_DEVICE constexpr complex<T> operator OP(const complex<T>& lhs, const complex<T>& rhs) { \
    complex<T> result = lhs;                                                                       \
    result OP## = rhs;                                                                             \
    return result;                                                                                 \
  }                                                                                                \
  template <typename T>                                                                            \
  C10_HOST_DEVICE constexpr complex<T> operator OP(const complex<T>& lhs, const T& rhs) {          \
    complex<T> result = lhs;                                                                       \
    result OP## = rhs;                                                                             \
    return result;                                                                                 \
  }                                                                                                \
  template <typename T>                                                                            \
  C10_HOST_DEVICE constexpr complex<T> operator OP(const T& lhs, const complex<T>& rhs) {          \
    complex<T> result(lhs);                                                                        \
    result OP## = rhs;                                                                             \
    return result;                                                                                 \
  }

TORCH_HEADERONLY_COMPLEX_BINARY_OP(+)
TORCH_HEADERONLY_COMPLEX_BINARY_OP(-)
TORCH_HEADERONLY_COMPLEX_BINARY_OP(*)
TORCH_HEADERONLY_COMPLEX_BINARY_OP(/)
#undef TORCH_HEADERONLY_COMPLEX_BINARY_OP

// Equality is exact, component-wise (so NaN != NaN, and +0 == -0).
template <typename T>
C10_HOST_DEVICE constexpr bool operator==(const complex<T>& lhs, const complex<T>& rhs) {
  return lhs.real() == rhs.real() && lhs.imag() == rhs.imag();
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator==(const complex<T>& lhs, const T& rhs) {
  return lhs == complex<T>(rhs, T(0));
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator==(const T& lhs, const complex<T>& rhs) {
  return complex<T>(lhs, T(0)) == rhs;
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator!=(const complex<T>& lhs, const complex<T>& rhs) {
  return !(lhs == rhs);
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator!=(const complex<T>& lhs, const T& rhs) {
  return !(lhs == rhs);
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator!=(const T& lhs, const complex<T>& rhs) {
  return !(lhs == rhs);
}

// Same text form as std::complex: "(re,im)".
template <typename T, typename CharT, typename Traits>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os,
                                              const complex<T>& x) {
  return os << '(' << x.real() << ',' << x.imag() << ')';
}

// Reads every form std::complex accepts: "re", "(re)" and "(re,im)".
template <typename T, typename CharT, typename Traits>
std::basic_istream<CharT, Traits>& operator>>(std::basic_istream<CharT, Traits>& is,
                                              complex<T>& x) {
  std::complex<double> tmp;
  if (is >> tmp) {
    x = complex<T>(complex<double>(tmp.real(), tmp.imag()));
  }
  return is;
}

// ---- free functions (found by ADL, mirroring <complex>) --------------------

template <typename T>
C10_HOST_DEVICE constexpr T real(const complex<T>& z) {
  return z.real();
}
template <typename T>
C10_HOST_DEVICE constexpr T imag(const complex<T>& z) {
  return z.imag();
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> conj(const complex<T>& z) {
  return complex<T>(z.real(), -z.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr T norm(const complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
// hypot avoids the overflow of sqrt(norm(z)) for large components.
template <typename T>
C10_HOST_DEVICE inline T abs(const complex<T>& z) {
  return std::hypot(z.real(), z.imag());
}
template <typename T>
C10_HOST_DEVICE inline T arg(const complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
template <typename T>
C10_HOST_DEVICE inline complex<T> polar(const T& r, const T& theta = T()) {
  return complex<T>(r * std::cos(theta), r * std::sin(theta));
}

// The <cmath> functions have no Half overloads: compute in float.
C10_HOST_DEVICE inline Half abs(const complex<Half>& z) {
  return Half(std::hypot(static_cast<float>(z.real()), static_cast<float>(z.imag())));
}
C10_HOST_DEVICE inline Half arg(const complex<Half>& z) {
  return Half(std::atan2(static_cast<float>(z.imag()), static_cast<float>(z.real())));
}
C10_HOST_DEVICE inline complex<Half> conj(const complex<Half>& z) {
  return complex<Half>(z.real(), -z.imag());
}
C10_HOST_DEVICE inline BFloat16 abs(const complex<BFloat16>& z) {
  return BFloat16(std::hypot(static_cast<float>(z.real()), static_cast<float>(z.imag())));
}
C10_HOST_DEVICE inline BFloat16 arg(const complex<BFloat16>& z) {
  return BFloat16(std::atan2(static_cast<float>(z.imag()), static_cast<float>(z.real())));
}
C10_HOST_DEVICE inline complex<BFloat16> conj(const complex<BFloat16>& z) {
  return complex<BFloat16>(z.real(), -z.imag());
}

// 2.5_if is complex<float>(0, 2.5), 2_id is complex<double>(0, 2): the
// imaginary literals std::complex spells 2.5if / 2i.
namespace complex_literals {
constexpr complex<float> operator""_if(long double imag) {
  return complex<float>(0.0f, static_cast<float>(imag));
}
constexpr complex<double> operator""_id(long double imag) {
  return complex<double>(0.0, static_cast<double>(imag));
}
constexpr complex<float> operator""_if(unsigned long long imag) {
  return complex<float>(0.0f, static_cast<float>(imag));
}
constexpr complex<double> operator""_id(unsigned long long imag) {
  return complex<double>(0.0, static_cast<double>(imag));
}
}  // namespace complex_literals

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::complex;
namespace complex_literals {
using namespace torch::headeronly::complex_literals;
}  // namespace complex_literals
}  // namespace c10

#include <torch/headeronly/util/complex_utils.h>  // IWYU pragma: export
