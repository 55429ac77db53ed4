// torch::stable::Scalar: a schema `Scalar` value (bool, int64, double or
// complex<double>), a stabletorch addition: PyTorch's stable ABI has no
// Scalar and its wrappers pass doubles, losing int64 precision above 2^53.
// It is a plain value in the extension; across the C ABI it travels as a
// StableScalarHandle (stabletorch/c/runtime.h) that the receiver owns.
#pragma once

#include <stabletorch/c/runtime.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/complex.h>

#include <cstdint>
#include <ostream>
#include <type_traits>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

class Scalar {
 public:
  enum class Kind { Bool, Int, Double, Complex };

  Scalar() : Scalar(int64_t{0}) {}
  /* implicit */ Scalar(bool v) : kind_(Kind::Bool), i_(v ? 1 : 0) {}
  // Every integral type but bool is an int64 Scalar, as in c10.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  /* implicit */ Scalar(T v) : kind_(Kind::Int), i_(static_cast<int64_t>(v)) {}
  /* implicit */ Scalar(double v) : kind_(Kind::Double), d_(v) {}
  /* implicit */ Scalar(float v) : kind_(Kind::Double), d_(v) {}
  /* implicit */ Scalar(torch::headeronly::complex<double> v)
      : kind_(Kind::Complex), d_(v.real()), imag_(v.imag()) {}

  Kind kind() const noexcept { return kind_; }
  bool isBoolean() const noexcept { return kind_ == Kind::Bool; }
  bool isIntegral() const noexcept { return kind_ == Kind::Int; }
  bool isFloatingPoint() const noexcept { return kind_ == Kind::Double; }
  bool isComplex() const noexcept { return kind_ == Kind::Complex; }

  bool toBool() const {
    STD_TORCH_CHECK(kind_ != Kind::Complex, "Scalar: a complex value is not a bool");
    return kind_ == Kind::Double ? d_ != 0 : i_ != 0;
  }
  // Exact for Int and Bool; a Double is truncated toward zero.
  int64_t toLong() const {
    STD_TORCH_CHECK(kind_ != Kind::Complex, "Scalar: a complex value is not an integer");
    return kind_ == Kind::Double ? static_cast<int64_t>(d_) : i_;
  }
  double toDouble() const {
    STD_TORCH_CHECK(kind_ != Kind::Complex, "Scalar: a complex value is not a real number");
    return kind_ == Kind::Double ? d_ : static_cast<double>(i_);
  }
  torch::headeronly::complex<double> toComplexDouble() const {
    return kind_ == Kind::Complex ? torch::headeronly::complex<double>(d_, imag_)
                                  : torch::headeronly::complex<double>(toDouble(), 0.0);
  }

  bool operator==(const Scalar& o) const noexcept {
    if (kind_ != o.kind_) return false;
    switch (kind_) {
      case Kind::Bool:
      case Kind::Int:
        return i_ == o.i_;
      case Kind::Double:
        return d_ == o.d_;
      case Kind::Complex:
        return d_ == o.d_ && imag_ == o.imag_;
    }
    return false;
  }
  bool operator!=(const Scalar& o) const noexcept { return !(*this == o); }

 private:
  Kind kind_;
  int64_t i_ = 0;
  double d_ = 0;  // the real part of a complex
  double imag_ = 0;
};

inline std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool:
      return os << (s.toBool() ? "True" : "False");
    case Scalar::Kind::Int:
      return os << s.toLong();
    case Scalar::Kind::Double:
      return os << s.toDouble();
    case Scalar::Kind::Complex: {
      const auto c = s.toComplexDouble();
      return os << "(" << c.real() << (c.imag() < 0 ? "" : "+") << c.imag() << "j)";
    }
  }
  return os;
}

HIDDEN_NAMESPACE_END(torch, stable)
