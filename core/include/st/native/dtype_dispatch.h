// Dtype dispatch for CPU kernels: run a generic lambda with the C++ type of
// a runtime ScalarType, restricted at compile time to a set of dtypes so
// that kernels are only instantiated where they make sense. A dtype outside
// the set raises st::Error naming the op and the dtype:
//   "add" not implemented for 'ComplexHalf'
//
//   dispatch_dtype<kAllTypes | kBool>(t, "add", [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...
//   });
//
// Also here: opmath types (the type a kernel computes in: float for Half and
// BFloat16, std::complex for complex dtypes) and convert<To>(from), the one
// value conversion every cast in the native kernels goes through.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <st/core/export.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st::native {

using ScalarType = torch::headeronly::ScalarType;
using Half = torch::headeronly::Half;
using BFloat16 = torch::headeronly::BFloat16;
template <typename T>
using hcomplex = torch::headeronly::complex<T>;

template <typename T>
struct TypeTag {
  using type = T;
};

constexpr uint64_t dtype_bit(ScalarType t) { return uint64_t{1} << static_cast<unsigned>(t); }

// Dtype sets (bit masks over ScalarType ordinals).
inline constexpr uint64_t kIntegralTypes =
    dtype_bit(ScalarType::Byte) | dtype_bit(ScalarType::Char) | dtype_bit(ScalarType::Short) |
    dtype_bit(ScalarType::Int) | dtype_bit(ScalarType::Long);
inline constexpr uint64_t kUnsignedTypes =
    dtype_bit(ScalarType::UInt16) | dtype_bit(ScalarType::UInt32) | dtype_bit(ScalarType::UInt64);
inline constexpr uint64_t kFloatTypes =
    dtype_bit(ScalarType::Float) | dtype_bit(ScalarType::Double);
inline constexpr uint64_t kReducedFloatTypes =
    dtype_bit(ScalarType::Half) | dtype_bit(ScalarType::BFloat16);
inline constexpr uint64_t kComplexTypes =
    dtype_bit(ScalarType::ComplexFloat) | dtype_bit(ScalarType::ComplexDouble);
inline constexpr uint64_t kBoolType = dtype_bit(ScalarType::Bool);
// PyTorch's "all types": integral + float + double.
inline constexpr uint64_t kAllTypes = kIntegralTypes | kFloatTypes;
inline constexpr uint64_t kAllFloat = kFloatTypes | kReducedFloatTypes;
inline constexpr uint64_t kEverything =
    kAllTypes | kReducedFloatTypes | kComplexTypes | kBoolType | kUnsignedTypes;

// The 8-bit floating types. Like PyTorch's CPU kernels, only copies
// (conversions go through float) and fills reach them: dispatch_float8.
inline constexpr uint64_t kFloat8Types =
    dtype_bit(ScalarType::Float8_e5m2) | dtype_bit(ScalarType::Float8_e4m3fn) |
    dtype_bit(ScalarType::Float8_e5m2fnuz) | dtype_bit(ScalarType::Float8_e4m3fnuz) |
    dtype_bit(ScalarType::Float8_e8m0fnu);
constexpr bool is_float8(ScalarType t) { return (kFloat8Types & dtype_bit(t)) != 0; }

// "add" not implemented for 'Half'
[[noreturn]] ST_API void throw_dtype_not_implemented(const char* op, ScalarType t);

// dispatch_dtype for the kFloat8Types.
template <typename F>
decltype(auto) dispatch_float8(ScalarType t, const char* op, F&& f) {
  switch (t) {
    case ScalarType::Float8_e5m2:
      return f(TypeTag<torch::headeronly::Float8_e5m2>{});
    case ScalarType::Float8_e4m3fn:
      return f(TypeTag<torch::headeronly::Float8_e4m3fn>{});
    case ScalarType::Float8_e5m2fnuz:
      return f(TypeTag<torch::headeronly::Float8_e5m2fnuz>{});
    case ScalarType::Float8_e4m3fnuz:
      return f(TypeTag<torch::headeronly::Float8_e4m3fnuz>{});
    case ScalarType::Float8_e8m0fnu:
      return f(TypeTag<torch::headeronly::Float8_e8m0fnu>{});
    default:
      break;
  }
  throw_dtype_not_implemented(op, t);
}

#define ST_NATIVE_DTYPE_CASE_(cpp, name)                       \
  case ScalarType::name:                                       \
    if constexpr ((kSet & dtype_bit(ScalarType::name)) != 0) { \
      return f(TypeTag<cpp>{});                                \
    }                                                          \
    break;

template <uint64_t kSet, typename F>
decltype(auto) dispatch_dtype(ScalarType t, const char* op, F&& f) {
  switch (t) {
    ST_NATIVE_DTYPE_CASE_(uint8_t, Byte)
    ST_NATIVE_DTYPE_CASE_(int8_t, Char)
    ST_NATIVE_DTYPE_CASE_(int16_t, Short)
    ST_NATIVE_DTYPE_CASE_(int32_t, Int)
    ST_NATIVE_DTYPE_CASE_(int64_t, Long)
    ST_NATIVE_DTYPE_CASE_(Half, Half)
    ST_NATIVE_DTYPE_CASE_(float, Float)
    ST_NATIVE_DTYPE_CASE_(double, Double)
    ST_NATIVE_DTYPE_CASE_(hcomplex<float>, ComplexFloat)
    ST_NATIVE_DTYPE_CASE_(hcomplex<double>, ComplexDouble)
    ST_NATIVE_DTYPE_CASE_(bool, Bool)
    ST_NATIVE_DTYPE_CASE_(BFloat16, BFloat16)
    ST_NATIVE_DTYPE_CASE_(uint16_t, UInt16)
    ST_NATIVE_DTYPE_CASE_(uint32_t, UInt32)
    ST_NATIVE_DTYPE_CASE_(uint64_t, UInt64)
    default:
      break;
  }
  throw_dtype_not_implemented(op, t);
}

#undef ST_NATIVE_DTYPE_CASE_

// ---- opmath types and conversions --------------------------------------

template <typename T>
struct opmath {
  using type = T;
};
template <>
struct opmath<Half> {
  using type = float;
};
template <>
struct opmath<BFloat16> {
  using type = float;
};
template <typename U>
struct opmath<hcomplex<U>> {
  using type = std::complex<U>;
};
template <typename T>
using opmath_t = typename opmath<T>::type;

template <typename T>
struct is_std_complex : std::false_type {};
template <typename U>
struct is_std_complex<std::complex<U>> : std::true_type {};
template <typename T>
inline constexpr bool is_complex_v = is_std_complex<T>::value || is_std_complex<opmath_t<T>>::value;

// The real type of an opmath type (float for std::complex<float>).
template <typename T>
struct real_value {
  using type = T;
};
template <typename U>
struct real_value<std::complex<U>> {
  using type = U;
};
template <typename T>
using real_value_t = typename real_value<T>::type;

template <typename T>
inline opmath_t<T> to_opmath(T v) {
  if constexpr (std::is_same_v<opmath_t<T>, T>) {
    return v;
  } else {
    return static_cast<opmath_t<T>>(v);
  }
}

template <typename T>
inline T from_opmath(opmath_t<T> v) {
  if constexpr (std::is_same_v<opmath_t<T>, T>) {
    return v;
  } else {
    return T(v);
  }
}

// Note [Floating to integer conversion]
// C++ leaves a floating value that is NaN or outside the integer type's
// range undefined (UBSan's float-cast-overflow reports it); PyTorch on x86
// returns whatever the truncating instruction gives: the "integer
// indefinite" value, the minimum of the 32- or 64-bit type. We give those
// same results by definition, on every platform: 64-bit and unsigned
// targets convert through int64 (so negative values wrap into unsigned
// types, as PyTorch does), narrower signed ones through int32 and then wrap
// to their width, as compiled x86 code does.
template <typename I, typename F>
inline I floating_to_integer(F x) {
  if constexpr (sizeof(I) == 8 || std::is_unsigned_v<I>) {
    constexpr double kLimit = 9223372036854775808.0;  // 2^63, exact
    const int64_t r = (x >= -kLimit && x < kLimit) ? static_cast<int64_t>(x)
                                                   : std::numeric_limits<int64_t>::min();
    return static_cast<I>(r);
  } else {
    constexpr double kLimit = 2147483648.0;  // 2^31, exact
    const int32_t r = (x >= -kLimit && x < kLimit) ? static_cast<int32_t>(x)
                                                   : std::numeric_limits<int32_t>::min();
    return static_cast<I>(r);
  }
}

// The value of `v` as a To: complex -> real keeps the real part (bool:
// either part non-zero), real -> complex has imaginary part 0, anything ->
// bool is "!= 0", floating -> integer as in Note [Floating to integer
// conversion].
template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    using X = opmath_t<From>;
    using Y = opmath_t<To>;
    const X x = to_opmath(v);
    if constexpr (std::is_same_v<To, bool>) {
      if constexpr (is_std_complex<X>::value) {
        return x.real() != 0 || x.imag() != 0;
      } else {
        return x != X(0);
      }
    } else if constexpr (is_std_complex<Y>::value) {
      using R = typename Y::value_type;
      if constexpr (is_std_complex<X>::value) {
        return from_opmath<To>(Y(static_cast<R>(x.real()), static_cast<R>(x.imag())));
      } else {
        return from_opmath<To>(Y(static_cast<R>(x), R(0)));
      }
    } else {
      if constexpr (is_std_complex<X>::value) {
        return convert<To>(x.real());
      } else if constexpr (std::is_floating_point_v<X> && std::is_integral_v<Y>) {
        return from_opmath<To>(floating_to_integer<Y>(x));
      } else {
        return from_opmath<To>(static_cast<Y>(x));
      }
    }
  }
}

}  // namespace st::native
