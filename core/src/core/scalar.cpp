#include <st/core/scalar.h>

namespace st {
namespace detail {

void throw_scalar_overflow(const char* type_name) {
  ST_ERROR("value cannot be converted to type ", type_name, " without overflow");
}

}  // namespace detail

torch::headeronly::ScalarType Scalar::type() const noexcept {
  switch (tag_) {
    case Tag::Bool:
      return torch::headeronly::ScalarType::Bool;
    case Tag::Int:
      return torch::headeronly::ScalarType::Long;
    case Tag::Double:
      return torch::headeronly::ScalarType::Double;
    case Tag::Complex:
      return torch::headeronly::ScalarType::ComplexDouble;
  }
  return torch::headeronly::ScalarType::Undefined;
}

Scalar Scalar::operator-() const {
  switch (tag_) {
    case Tag::Bool:
      ST_ERROR(
          "Scalar: negation, the `-` operator, on a bool is not "
          "supported");
    case Tag::Int:
      ST_CHECK(v_.i != INT64_MIN, "Scalar: negating ", v_.i, " overflows int64");
      return Scalar(-v_.i);
    case Tag::Double:
      return Scalar(-v_.d);
    case Tag::Complex:
      return Scalar(std::complex<double>(-v_.z[0], -v_.z[1]));
  }
  return *this;
}

bool Scalar::equal(const Scalar& o) const noexcept {
  if (tag_ != o.tag_) {
    return false;
  }
  switch (tag_) {
    case Tag::Bool:
    case Tag::Int:
      return v_.i == o.v_.i;
    case Tag::Double:
      return v_.d == o.v_.d;
    case Tag::Complex:
      return v_.z[0] == o.v_.z[0] && v_.z[1] == o.v_.z[1];
  }
  return false;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.tag()) {
    case Scalar::Tag::Bool:
      return os << (s.raw_int() != 0 ? "true" : "false");
    case Scalar::Tag::Int:
      return os << s.raw_int();
    case Scalar::Tag::Double:
      return os << s.raw_double();
    case Scalar::Tag::Complex: {
      const auto z = s.toComplexDouble();
      return os << "(" << z.real() << (z.imag() < 0 ? "" : "+") << z.imag() << "j)";
    }
  }
  return os;
}

}  // namespace st
