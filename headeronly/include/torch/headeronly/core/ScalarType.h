// torch::headeronly::ScalarType: the dtype vocabulary of the stable ABI.
//
// The ordinals are c10's, value for value, because they cross the C ABI as
// raw integers (StableIValue payloads, aoti_torch_dtype_* codes). Never
// reorder or renumber; append only. tests/headeronly/test_scalar_type.cpp
// pins every value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <type_traits>

#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/Float4_e2m1fn_x2.h>
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Float8_e8m0fnu.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/bits.h>
#include <torch/headeronly/util/complex.h>
#include <torch/headeronly/util/qint32.h>
#include <torch/headeronly/util/qint8.h>
#include <torch/headeronly/util/quint2x4.h>
#include <torch/headeronly/util/quint4x2.h>
#include <torch/headeronly/util/quint8.h>

namespace torch::headeronly {

// Storage stand-ins for the sub-byte integer dtypes (UInt1..7, Int1..7):
// PyTorch gives them no arithmetic, only a name and a one-byte element.
template <unsigned N>
struct dummy_uint1_7_t {
  uint8_t val_;
};
template <unsigned N>
struct dummy_int1_7_t {
  int8_t val_;
};

// X-macro over every dtype as (C++ type, enumerator name), in ordinal order.
// The enum below, toString and elementSize are all generated from this one
// list so they cannot drift apart.
#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(_)                  \
  _(uint8_t, Byte)                                                        \
  _(int8_t, Char)                                                         \
  _(int16_t, Short)                                                       \
  _(int, Int)                                                             \
  _(int64_t, Long)                                                        \
  _(::torch::headeronly::Half, Half)                                      \
  _(float, Float)                                                         \
  _(double, Double)                                                       \
  _(::torch::headeronly::complex<::torch::headeronly::Half>, ComplexHalf) \
  _(::torch::headeronly::complex<float>, ComplexFloat)                    \
  _(::torch::headeronly::complex<double>, ComplexDouble)                  \
  _(bool, Bool)                                                           \
  _(::torch::headeronly::qint8, QInt8)                                    \
  _(::torch::headeronly::quint8, QUInt8)                                  \
  _(::torch::headeronly::qint32, QInt32)                                  \
  _(::torch::headeronly::BFloat16, BFloat16)                              \
  _(::torch::headeronly::quint4x2, QUInt4x2)                              \
  _(::torch::headeronly::quint2x4, QUInt2x4)                              \
  _(::torch::headeronly::bits1x8, Bits1x8)                                \
  _(::torch::headeronly::bits2x4, Bits2x4)                                \
  _(::torch::headeronly::bits4x2, Bits4x2)                                \
  _(::torch::headeronly::bits8, Bits8)                                    \
  _(::torch::headeronly::bits16, Bits16)                                  \
  _(::torch::headeronly::Float8_e5m2, Float8_e5m2)                        \
  _(::torch::headeronly::Float8_e4m3fn, Float8_e4m3fn)                    \
  _(::torch::headeronly::Float8_e5m2fnuz, Float8_e5m2fnuz)                \
  _(::torch::headeronly::Float8_e4m3fnuz, Float8_e4m3fnuz)                \
  _(uint16_t, UInt16)                                                     \
  _(uint32_t, UInt32)                                                     \
  _(uint64_t, UInt64)                                                     \
  _(::torch::headeronly::dummy_uint1_7_t<1>, UInt1)                       \
  _(::torch::headeronly::dummy_uint1_7_t<2>, UInt2)                       \
  _(::torch::headeronly::dummy_uint1_7_t<3>, UInt3)                       \
  _(::torch::headeronly::dummy_uint1_7_t<4>, UInt4)                       \
  _(::torch::headeronly::dummy_uint1_7_t<5>, UInt5)                       \
  _(::torch::headeronly::dummy_uint1_7_t<6>, UInt6)                       \
  _(::torch::headeronly::dummy_uint1_7_t<7>, UInt7)                       \
  _(::torch::headeronly::dummy_int1_7_t<1>, Int1)                         \
  _(::torch::headeronly::dummy_int1_7_t<2>, Int2)                         \
  _(::torch::headeronly::dummy_int1_7_t<3>, Int3)                         \
  _(::torch::headeronly::dummy_int1_7_t<4>, Int4)                         \
  _(::torch::headeronly::dummy_int1_7_t<5>, Int5)                         \
  _(::torch::headeronly::dummy_int1_7_t<6>, Int6)                         \
  _(::torch::headeronly::dummy_int1_7_t<7>, Int7)                         \
  _(::torch::headeronly::Float8_e8m0fnu, Float8_e8m0fnu)                  \
  _(::torch::headeronly::Float4_e2m1fn_x2, Float4_e2m1fn_x2)              \
  _(::torch::headeronly::complex<::torch::headeronly::BFloat16>, BComplex32)

// The dtypes ordinary kernels handle (PyTorch's AT_FORALL_SCALAR_TYPES).
#define AT_FORALL_SCALAR_TYPES(_) \
  _(uint8_t, Byte)                \
  _(int8_t, Char)                 \
  _(int16_t, Short)               \
  _(int, Int)                     \
  _(int64_t, Long)                \
  _(float, Float)                 \
  _(double, Double)

#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(_)                            \
  _(uint8_t, Byte)                                                        \
  _(int8_t, Char)                                                         \
  _(int16_t, Short)                                                       \
  _(int, Int)                                                             \
  _(int64_t, Long)                                                        \
  _(::torch::headeronly::Half, Half)                                      \
  _(float, Float)                                                         \
  _(double, Double)                                                       \
  _(::torch::headeronly::complex<::torch::headeronly::Half>, ComplexHalf) \
  _(::torch::headeronly::complex<float>, ComplexFloat)                    \
  _(::torch::headeronly::complex<double>, ComplexDouble)                  \
  _(bool, Bool)                                                           \
  _(::torch::headeronly::BFloat16, BFloat16)                              \
  _(::torch::headeronly::Float8_e5m2, Float8_e5m2)                        \
  _(::torch::headeronly::Float8_e4m3fn, Float8_e4m3fn)                    \
  _(::torch::headeronly::Float8_e5m2fnuz, Float8_e5m2fnuz)                \
  _(::torch::headeronly::Float8_e4m3fnuz, Float8_e4m3fnuz)                \
  _(::torch::headeronly::Float8_e8m0fnu, Float8_e8m0fnu)

// The dtypes with full conversion support (convert() between any two of
// them): no ComplexHalf, no fnuz Float8.
#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_EXCEPT_COMPLEX_HALF_F8NZ(_) \
  _(uint8_t, Byte)                                                      \
  _(int8_t, Char)                                                       \
  _(int16_t, Short)                                                     \
  _(int, Int)                                                           \
  _(int64_t, Long)                                                      \
  _(::torch::headeronly::Half, Half)                                    \
  _(float, Float)                                                       \
  _(double, Double)                                                     \
  _(::torch::headeronly::complex<float>, ComplexFloat)                  \
  _(::torch::headeronly::complex<double>, ComplexDouble)                \
  _(bool, Bool)                                                         \
  _(::torch::headeronly::BFloat16, BFloat16)                            \
  _(::torch::headeronly::Float8_e5m2, Float8_e5m2)                      \
  _(::torch::headeronly::Float8_e4m3fn, Float8_e4m3fn)

// AT_FORALL_SCALAR_TYPES plus the named dtypes, each as
// (impl::ScalarTypeToCPPTypeT<ScalarType::NAME>, NAME).
#define AT_FORALL_SCALAR_TYPES_AND(SCALARTYPE, _)                                                 \
  AT_FORALL_SCALAR_TYPES(_)                                                                       \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE>, \
    SCALARTYPE)
#define AT_FORALL_SCALAR_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, _)                                   \
  AT_FORALL_SCALAR_TYPES(_)                                                                        \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE1>, \
    SCALARTYPE1)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE2>, \
    SCALARTYPE2)
#define AT_FORALL_SCALAR_TYPES_AND3(SCALARTYPE1, SCALARTYPE2, SCALARTYPE3, _)                      \
  AT_FORALL_SCALAR_TYPES(_)                                                                        \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE1>, \
    SCALARTYPE1)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE2>, \
    SCALARTYPE2)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE3>, \
    SCALARTYPE3)
#define AT_FORALL_SCALAR_TYPES_AND7(SCALARTYPE1, SCALARTYPE2, SCALARTYPE3, SCALARTYPE4,            \
                                    SCALARTYPE5, SCALARTYPE6, SCALARTYPE7, _)                      \
  AT_FORALL_SCALAR_TYPES(_)                                                                        \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE1>, \
    SCALARTYPE1)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE2>, \
    SCALARTYPE2)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE3>, \
    SCALARTYPE3)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE4>, \
    SCALARTYPE4)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE5>, \
    SCALARTYPE5)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE6>, \
    SCALARTYPE6)                                                                                   \
  _(::torch::headeronly::impl::ScalarTypeToCPPTypeT<::torch::headeronly::ScalarType::SCALARTYPE7>, \
    SCALARTYPE7)

#define AT_FORALL_INT_TYPES(_) \
  _(uint8_t, Byte)             \
  _(int8_t, Char)              \
  _(int16_t, Short)            \
  _(int, Int)                  \
  _(int64_t, Long)

#define AT_FORALL_COMPLEX_TYPES(_)                     \
  _(::torch::headeronly::complex<float>, ComplexFloat) \
  _(::torch::headeronly::complex<double>, ComplexDouble)

#define AT_FORALL_QINT_TYPES(_)              \
  _(::torch::headeronly::qint8, QInt8)       \
  _(::torch::headeronly::quint8, QUInt8)     \
  _(::torch::headeronly::qint32, QInt32)     \
  _(::torch::headeronly::quint4x2, QUInt4x2) \
  _(::torch::headeronly::quint2x4, QUInt2x4)

#define AT_FORALL_FLOAT8_TYPES(_)                          \
  _(::torch::headeronly::Float8_e5m2, Float8_e5m2)         \
  _(::torch::headeronly::Float8_e4m3fn, Float8_e4m3fn)     \
  _(::torch::headeronly::Float8_e5m2fnuz, Float8_e5m2fnuz) \
  _(::torch::headeronly::Float8_e4m3fnuz, Float8_e4m3fnuz) \
  _(::torch::headeronly::Float8_e8m0fnu, Float8_e8m0fnu)

enum class ScalarType : int8_t {
#define ST_DEFINE_ENUMERATOR_(cpp_type, name) name,
  AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_DEFINE_ENUMERATOR_)
#undef ST_DEFINE_ENUMERATOR_
      Undefined,
  NumOptions
};

constexpr uint16_t NumScalarTypes = static_cast<uint16_t>(ScalarType::NumOptions);

// kFloat-style shorthands, as c10 spells them.
#define ST_DEFINE_CONSTANT_(cpp_type, name) constexpr ScalarType k##name = ScalarType::name;
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_DEFINE_CONSTANT_)
#undef ST_DEFINE_CONSTANT_

// The storage dtype of a quantized dtype (QUInt8 -> Byte, QInt8 -> Char,
// QInt32 -> Int, ...); every other dtype maps to itself.
constexpr ScalarType toUnderlying(ScalarType t) {
  switch (t) {
    case ScalarType::QUInt8:
    case ScalarType::QUInt4x2:
    case ScalarType::QUInt2x4:
      return ScalarType::Byte;
    case ScalarType::QInt8:
      return ScalarType::Char;
    case ScalarType::QInt32:
      return ScalarType::Int;
    default:
      return t;
  }
}

// Name of a dtype as c10 prints it ("Float", "ComplexHalf", ...). Returns
// "UNKNOWN_SCALAR" for values outside the enum, so printing never fails.
inline const char* toString(ScalarType t) {
  switch (t) {
#define ST_NAME_CASE_(cpp_type, name) \
  case ScalarType::name:              \
    return #name;
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_NAME_CASE_)
#undef ST_NAME_CASE_
    case ScalarType::Undefined:
      return "Undefined";
    default:
      return "UNKNOWN_SCALAR";
  }
}

inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << toString(t); }

// Bytes per element. Throws for Undefined and out-of-range values: asking
// the size of no type is a caller bug that must not yield a silent 0.
inline size_t elementSize(ScalarType t) {
  switch (t) {
#define ST_SIZE_CASE_(cpp_type, name) \
  case ScalarType::name:              \
    return sizeof(cpp_type);
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_SIZE_CASE_)
#undef ST_SIZE_CASE_
    default:
      break;
  }
  detail::throw_check_failure(nullptr, __func__, __FILE__, __LINE__, "Unknown ScalarType ",
                              toString(t), " (ordinal ", static_cast<int>(t),
                              ") has no element size");
}

constexpr bool isQIntType(ScalarType t) {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32 ||
         t == ScalarType::QUInt4x2 || t == ScalarType::QUInt2x4;
}

constexpr bool isBitsType(ScalarType t) {
  return t == ScalarType::Bits1x8 || t == ScalarType::Bits2x4 || t == ScalarType::Bits4x2 ||
         t == ScalarType::Bits8 || t == ScalarType::Bits16;
}

// The unsigned dtypes wider than a byte, which PyTorch supports only
// partially ("barebones"): no promotion with signed integers.
constexpr bool isBarebonesUnsignedType(ScalarType t) {
  return t == ScalarType::UInt1 || t == ScalarType::UInt2 || t == ScalarType::UInt3 ||
         t == ScalarType::UInt4 || t == ScalarType::UInt5 || t == ScalarType::UInt6 ||
         t == ScalarType::UInt7 || t == ScalarType::UInt16 || t == ScalarType::UInt32 ||
         t == ScalarType::UInt64;
}

constexpr bool isSubByteIntType(ScalarType t) {
  using U = std::underlying_type_t<ScalarType>;
  return static_cast<U>(t) >= static_cast<U>(ScalarType::UInt1) &&
         static_cast<U>(t) <= static_cast<U>(ScalarType::Int7);
}

constexpr bool isFloat8Type(ScalarType t) {
  return t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn ||
         t == ScalarType::Float8_e5m2fnuz || t == ScalarType::Float8_e4m3fnuz ||
         t == ScalarType::Float8_e8m0fnu;
}

constexpr bool isReducedFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || isFloat8Type(t);
}

// Integral dtypes; Bool counts only when includeBool is true.
constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  const bool integral = t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
                        t == ScalarType::Int || t == ScalarType::Long || isSubByteIntType(t) ||
                        t == ScalarType::UInt16 || t == ScalarType::UInt32 ||
                        t == ScalarType::UInt64;
  return integral || (includeBool && t == ScalarType::Bool);
}

constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::Float || isReducedFloatingType(t);
}

constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
         t == ScalarType::ComplexDouble || t == ScalarType::BComplex32;
}

// Whether values of the dtype can be negative (c10::isSignedType).
inline bool isSignedType(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Bool:
    case ScalarType::QUInt8:
    case ScalarType::QUInt4x2:
    case ScalarType::QUInt2x4:
    case ScalarType::UInt1:
    case ScalarType::UInt2:
    case ScalarType::UInt3:
    case ScalarType::UInt4:
    case ScalarType::UInt5:
    case ScalarType::UInt6:
    case ScalarType::UInt7:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
    case ScalarType::Float8_e8m0fnu:
      return false;
    case ScalarType::Bits1x8:
    case ScalarType::Bits2x4:
    case ScalarType::Bits4x2:
    case ScalarType::Bits8:
    case ScalarType::Bits16:
    case ScalarType::Float4_e2m1fn_x2:
    case ScalarType::Undefined:
    case ScalarType::NumOptions:
      detail::throw_check_failure(nullptr, __func__, __FILE__, __LINE__,
                                  "isSignedType is not defined for dtype ", toString(t));
    default:
      return true;
  }
}

// The real counterpart of a complex dtype; other dtypes map to themselves.
constexpr ScalarType toRealValueType(ScalarType t) {
  switch (t) {
    case ScalarType::ComplexHalf:
      return ScalarType::Half;
    case ScalarType::BComplex32:
      return ScalarType::BFloat16;
    case ScalarType::ComplexFloat:
      return ScalarType::Float;
    case ScalarType::ComplexDouble:
      return ScalarType::Double;
    default:
      return t;
  }
}

// The complex counterpart of a floating dtype.
inline ScalarType toComplexType(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::ComplexHalf:
      return ScalarType::ComplexHalf;
    case ScalarType::BFloat16:
    case ScalarType::BComplex32:
      return ScalarType::BComplex32;
    case ScalarType::Float:
    case ScalarType::ComplexFloat:
      return ScalarType::ComplexFloat;
    case ScalarType::Double:
    case ScalarType::ComplexDouble:
      return ScalarType::ComplexDouble;
    default:
      detail::throw_check_failure(nullptr, __func__, __FILE__, __LINE__,
                                  "Unknown Complex ScalarType for ", toString(t));
  }
}

// Whether a value of dtype `from` may be written into `to` without a
// category downgrade (complex -> real, floating -> integral, non-bool ->
// bool), as used by in-place and out= checks.
constexpr bool canCast(ScalarType from, ScalarType to) {
  if (isComplexType(from) && !isComplexType(to)) {
    return false;
  }
  if (isFloatingType(from) && isIntegralType(to, false)) {
    return false;
  }
  if (from != ScalarType::Bool && to == ScalarType::Bool) {
    return false;
  }
  return true;
}

namespace detail {
// Index of a dtype in the promotion lattice below, or -1 when it is not in
// the lattice.
constexpr int promotionIndex(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return 0;
    case ScalarType::Char:
      return 1;
    case ScalarType::Short:
      return 2;
    case ScalarType::Int:
      return 3;
    case ScalarType::Long:
      return 4;
    case ScalarType::Half:
      return 5;
    case ScalarType::Float:
      return 6;
    case ScalarType::Double:
      return 7;
    case ScalarType::ComplexHalf:
      return 8;
    case ScalarType::ComplexFloat:
      return 9;
    case ScalarType::ComplexDouble:
      return 10;
    case ScalarType::Bool:
      return 11;
    case ScalarType::BFloat16:
      return 12;
    default:
      return -1;
  }
}
}  // namespace detail

// PyTorch's promote_types: the smallest dtype both arguments convert to
// without a category downgrade. Throws for combinations PyTorch refuses
// (Float8 with another dtype, wide unsigned with a non-floating dtype,
// quantized, bits and sub-byte dtypes).
inline ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) {
    return a;
  }
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) {
    return ScalarType::Undefined;
  }
  STD_TORCH_CHECK_MSG(!isFloat8Type(a) && !isFloat8Type(b) && a != ScalarType::Float4_e2m1fn_x2 &&
                          b != ScalarType::Float4_e2m1fn_x2,
                      "Promotion for Float8 Types is not supported, attempted "
                      "to promote ",
                      toString(a), " and ", toString(b));
  if (isBarebonesUnsignedType(a) || isBarebonesUnsignedType(b)) {
    // A floating dtype wins (complex does not, as in PyTorch); everything else would either
    // overflow (uint64 into int64) or disagree with NumPy, so PyTorch refuses it.
    if (isFloatingType(a)) {
      return a;
    }
    if (isFloatingType(b)) {
      return b;
    }
    detail::throw_check_failure(nullptr, __func__, __FILE__, __LINE__,
                                "Promotion for uint16, uint32, uint64 types is not supported, "
                                "attempted to promote ",
                                toString(a), " and ", toString(b));
  }
  STD_TORCH_CHECK_MSG(!isQIntType(a) && !isQIntType(b),
                      "promoteTypes with quantized numbers is not handled "
                      "yet; figure out what the correct rules should be, "
                      "offending types: ",
                      toString(a), " ", toString(b));
  STD_TORCH_CHECK_MSG(
      !isBitsType(a) && !isBitsType(b) && !isSubByteIntType(a) && !isSubByteIntType(b),
      "Promotion for ", toString(a), " and ", toString(b), " is not supported");
  constexpr ScalarType u1 = ScalarType::Byte, i1 = ScalarType::Char, i2 = ScalarType::Short,
                       i4 = ScalarType::Int, i8 = ScalarType::Long, f2 = ScalarType::Half,
                       f4 = ScalarType::Float, f8 = ScalarType::Double,
                       c2 = ScalarType::ComplexHalf, c4 = ScalarType::ComplexFloat,
                       c8 = ScalarType::ComplexDouble, b1 = ScalarType::Bool,
                       bf = ScalarType::BFloat16;
  // Row and column order: u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf.
  constexpr ScalarType table[13][13] = {
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8},
      /* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf},
  };
  const int ia = detail::promotionIndex(a);
  const int ib = detail::promotionIndex(b);
  STD_TORCH_CHECK_MSG(ia >= 0 && ib >= 0, "Promotion for ", toString(a), " and ", toString(b),
                      " is not supported");
  return table[ia][ib];
}

// Compile-time mapping between dtypes and C++ types.
template <ScalarType N>
struct ScalarTypeToCPPType;

#define ST_SPECIALIZE_TO_CPP_(cpp_type, name)    \
  template <>                                    \
  struct ScalarTypeToCPPType<ScalarType::name> { \
    using type = cpp_type;                       \
  };
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_SPECIALIZE_TO_CPP_)
#undef ST_SPECIALIZE_TO_CPP_

template <ScalarType N>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<N>::type;

// PyTorch's spelling, in namespace impl. Its `t` member is a declaration
// only, for code that writes decltype(ScalarTypeToCPPType<N>::t).
namespace impl {
template <ScalarType N>
struct ScalarTypeToCPPType {
  using type = typename ::torch::headeronly::ScalarTypeToCPPType<N>::type;
  static type t;
};
template <ScalarType N>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<N>::type;
}  // namespace impl

template <typename T>
struct CppTypeToScalarType;

// Only the unambiguous C++ types map back (the sub-byte stand-ins and the
// int/int32_t alias are handled once each).
#define ST_SPECIALIZE_FROM_CPP_(cpp_type, name) \
  template <>                                   \
  struct CppTypeToScalarType<cpp_type> : std::integral_constant<ScalarType, ScalarType::name> {};
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_SPECIALIZE_FROM_CPP_)
#undef ST_SPECIALIZE_FROM_CPP_

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::canCast;
using torch::headeronly::CppTypeToScalarType;
using torch::headeronly::elementSize;
using torch::headeronly::isBarebonesUnsignedType;
using torch::headeronly::isBitsType;
using torch::headeronly::isComplexType;
using torch::headeronly::isFloat8Type;
using torch::headeronly::isFloatingType;
using torch::headeronly::isIntegralType;
using torch::headeronly::isQIntType;
using torch::headeronly::isReducedFloatingType;
using torch::headeronly::isSignedType;
using torch::headeronly::NumScalarTypes;
using torch::headeronly::promoteTypes;
using torch::headeronly::ScalarType;
using torch::headeronly::ScalarTypeToCPPType;
using torch::headeronly::ScalarTypeToCPPTypeT;
using torch::headeronly::toComplexType;
using torch::headeronly::toRealValueType;
using torch::headeronly::toString;
using torch::headeronly::toUnderlying;
namespace impl {
using torch::headeronly::impl::ScalarTypeToCPPType;
using torch::headeronly::impl::ScalarTypeToCPPTypeT;
}  // namespace impl
#define ST_EXPORT_CONSTANT_(cpp_type, name) using torch::headeronly::k##name;
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_EXPORT_CONSTANT_)
#undef ST_EXPORT_CONSTANT_
}  // namespace c10
