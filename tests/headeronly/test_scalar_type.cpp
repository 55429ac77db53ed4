// Pins every ScalarType ordinal to c10's value and checks the dtype
// predicates and PyTorch's promotion table.
#include <torch/headeronly/core/ScalarType.h>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using torch::headeronly::ScalarType;
namespace tho = torch::headeronly;

TEST(ScalarType, OrdinalsMatchC10) {
  // These numbers cross the C ABI; they must equal c10's forever.
  const std::pair<ScalarType, int> expected[] = {
      {ScalarType::Byte, 0},
      {ScalarType::Char, 1},
      {ScalarType::Short, 2},
      {ScalarType::Int, 3},
      {ScalarType::Long, 4},
      {ScalarType::Half, 5},
      {ScalarType::Float, 6},
      {ScalarType::Double, 7},
      {ScalarType::ComplexHalf, 8},
      {ScalarType::ComplexFloat, 9},
      {ScalarType::ComplexDouble, 10},
      {ScalarType::Bool, 11},
      {ScalarType::QInt8, 12},
      {ScalarType::QUInt8, 13},
      {ScalarType::QInt32, 14},
      {ScalarType::BFloat16, 15},
      {ScalarType::QUInt4x2, 16},
      {ScalarType::QUInt2x4, 17},
      {ScalarType::Bits1x8, 18},
      {ScalarType::Bits2x4, 19},
      {ScalarType::Bits4x2, 20},
      {ScalarType::Bits8, 21},
      {ScalarType::Bits16, 22},
      {ScalarType::Float8_e5m2, 23},
      {ScalarType::Float8_e4m3fn, 24},
      {ScalarType::Float8_e5m2fnuz, 25},
      {ScalarType::Float8_e4m3fnuz, 26},
      {ScalarType::UInt16, 27},
      {ScalarType::UInt32, 28},
      {ScalarType::UInt64, 29},
      {ScalarType::UInt1, 30},
      {ScalarType::UInt2, 31},
      {ScalarType::UInt3, 32},
      {ScalarType::UInt4, 33},
      {ScalarType::UInt5, 34},
      {ScalarType::UInt6, 35},
      {ScalarType::UInt7, 36},
      {ScalarType::Int1, 37},
      {ScalarType::Int2, 38},
      {ScalarType::Int3, 39},
      {ScalarType::Int4, 40},
      {ScalarType::Int5, 41},
      {ScalarType::Int6, 42},
      {ScalarType::Int7, 43},
      {ScalarType::Float8_e8m0fnu, 44},
      {ScalarType::Float4_e2m1fn_x2, 45},
      {ScalarType::BComplex32, 46},
      {ScalarType::Undefined, 47},
      {ScalarType::NumOptions, 48},
  };
  for (const auto& [type, ordinal] : expected) {
    EXPECT_EQ(static_cast<int>(type), ordinal) << tho::toString(type);
  }
  EXPECT_EQ(tho::NumScalarTypes, 48);
  static_assert(sizeof(ScalarType) == 1, "ScalarType is one byte, as c10's");
}

TEST(ScalarType, NamesAndPrinting) {
  EXPECT_STREQ(tho::toString(ScalarType::Float), "Float");
  EXPECT_STREQ(tho::toString(ScalarType::ComplexHalf), "ComplexHalf");
  EXPECT_STREQ(tho::toString(ScalarType::Float8_e4m3fnuz), "Float8_e4m3fnuz");
  EXPECT_STREQ(tho::toString(ScalarType::Float4_e2m1fn_x2), "Float4_e2m1fn_x2");
  EXPECT_STREQ(tho::toString(ScalarType::Undefined), "Undefined");
  EXPECT_STREQ(tho::toString(static_cast<ScalarType>(99)), "UNKNOWN_SCALAR");
  std::ostringstream os;
  os << ScalarType::BFloat16;
  EXPECT_EQ(os.str(), "BFloat16");
}

TEST(ScalarType, ElementSizes) {
  EXPECT_EQ(tho::elementSize(ScalarType::Byte), 1u);
  EXPECT_EQ(tho::elementSize(ScalarType::Short), 2u);
  EXPECT_EQ(tho::elementSize(ScalarType::Int), 4u);
  EXPECT_EQ(tho::elementSize(ScalarType::Long), 8u);
  EXPECT_EQ(tho::elementSize(ScalarType::Half), 2u);
  EXPECT_EQ(tho::elementSize(ScalarType::BFloat16), 2u);
  EXPECT_EQ(tho::elementSize(ScalarType::Float), 4u);
  EXPECT_EQ(tho::elementSize(ScalarType::Double), 8u);
  EXPECT_EQ(tho::elementSize(ScalarType::ComplexHalf), 4u);
  EXPECT_EQ(tho::elementSize(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(tho::elementSize(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(tho::elementSize(ScalarType::Bool), 1u);
  EXPECT_EQ(tho::elementSize(ScalarType::QInt32), 4u);
  EXPECT_EQ(tho::elementSize(ScalarType::Bits16), 2u);
  EXPECT_EQ(tho::elementSize(ScalarType::UInt16), 2u);
  EXPECT_EQ(tho::elementSize(ScalarType::UInt32), 4u);
  EXPECT_EQ(tho::elementSize(ScalarType::UInt64), 8u);
  EXPECT_EQ(tho::elementSize(ScalarType::UInt3), 1u);
  EXPECT_EQ(tho::elementSize(ScalarType::Int7), 1u);
  for (ScalarType t :
       {ScalarType::Float8_e5m2, ScalarType::Float8_e4m3fn, ScalarType::Float8_e5m2fnuz,
        ScalarType::Float8_e4m3fnuz, ScalarType::Float8_e8m0fnu, ScalarType::Float4_e2m1fn_x2}) {
    EXPECT_EQ(tho::elementSize(t), 1u) << t;
  }
  try {
    (void)tho::elementSize(ScalarType::Undefined);
    FAIL() << "elementSize(Undefined) must throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Undefined"), std::string::npos);
  }
}

TEST(ScalarType, CategoryPredicates) {
  EXPECT_TRUE(tho::isIntegralType(ScalarType::Long, false));
  EXPECT_TRUE(tho::isIntegralType(ScalarType::UInt64, false));
  EXPECT_FALSE(tho::isIntegralType(ScalarType::Bool, false));
  EXPECT_TRUE(tho::isIntegralType(ScalarType::Bool, true));
  EXPECT_FALSE(tho::isIntegralType(ScalarType::Float, true));
  EXPECT_TRUE(tho::isFloatingType(ScalarType::Half));
  EXPECT_TRUE(tho::isFloatingType(ScalarType::BFloat16));
  EXPECT_TRUE(tho::isFloatingType(ScalarType::Float8_e4m3fn));
  EXPECT_FALSE(tho::isFloatingType(ScalarType::ComplexFloat));
  EXPECT_TRUE(tho::isComplexType(ScalarType::ComplexHalf));
  EXPECT_FALSE(tho::isComplexType(ScalarType::Double));
  EXPECT_TRUE(tho::isReducedFloatingType(ScalarType::BFloat16));
  EXPECT_FALSE(tho::isReducedFloatingType(ScalarType::Float));
  EXPECT_TRUE(tho::isQIntType(ScalarType::QUInt4x2));
  EXPECT_TRUE(tho::isBitsType(ScalarType::Bits8));
  EXPECT_TRUE(tho::isBarebonesUnsignedType(ScalarType::UInt32));
  EXPECT_FALSE(tho::isBarebonesUnsignedType(ScalarType::Byte));
  EXPECT_TRUE(tho::isSignedType(ScalarType::Char));
  EXPECT_FALSE(tho::isSignedType(ScalarType::Byte));
  EXPECT_TRUE(tho::isSignedType(ScalarType::Half));
  EXPECT_THROW((void)tho::isSignedType(ScalarType::Bits8), std::runtime_error);
}

TEST(ScalarType, RealAndComplexCounterparts) {
  EXPECT_EQ(tho::toRealValueType(ScalarType::ComplexFloat), ScalarType::Float);
  EXPECT_EQ(tho::toRealValueType(ScalarType::ComplexHalf), ScalarType::Half);
  EXPECT_EQ(tho::toRealValueType(ScalarType::Long), ScalarType::Long);
  EXPECT_EQ(tho::toComplexType(ScalarType::Double), ScalarType::ComplexDouble);
  EXPECT_EQ(tho::toComplexType(ScalarType::Half), ScalarType::ComplexHalf);
  EXPECT_EQ(tho::toComplexType(ScalarType::BFloat16), ScalarType::BComplex32);
  EXPECT_THROW((void)tho::toComplexType(ScalarType::Long), std::runtime_error);
}

TEST(ScalarType, CanCast) {
  EXPECT_TRUE(tho::canCast(ScalarType::Long, ScalarType::Float));
  EXPECT_FALSE(tho::canCast(ScalarType::Float, ScalarType::Long));
  EXPECT_FALSE(tho::canCast(ScalarType::ComplexFloat, ScalarType::Double));
  EXPECT_FALSE(tho::canCast(ScalarType::Int, ScalarType::Bool));
  EXPECT_TRUE(tho::canCast(ScalarType::Bool, ScalarType::Bool));
  EXPECT_TRUE(tho::canCast(ScalarType::Bool, ScalarType::Byte));
  EXPECT_TRUE(tho::canCast(ScalarType::Double, ScalarType::Half));
}

// The full 13x13 promotion lattice of PyTorch, spelled out independently of
// the implementation's table (rows: a, columns: b).
TEST(ScalarType, PromotionTableMatchesPyTorch) {
  using S = ScalarType;
  const S types[] = {S::Byte,          S::Char,  S::Short,   S::Int,         S::Long,
                     S::Half,          S::Float, S::Double,  S::ComplexHalf, S::ComplexFloat,
                     S::ComplexDouble, S::Bool,  S::BFloat16};
  const char* expected[13] = {
      // u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  bf
      "u1 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 u1 bf",  // u1
      "i2 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 i1 bf",  // i1
      "i2 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 i2 bf",  // i2
      "i4 i4 i4 i4 i8 f2 f4 f8 c2 c4 c8 i4 bf",  // i4
      "i8 i8 i8 i8 i8 f2 f4 f8 c2 c4 c8 i8 bf",  // i8
      "f2 f2 f2 f2 f2 f2 f4 f8 c2 c4 c8 f2 f4",  // f2
      "f4 f4 f4 f4 f4 f4 f4 f8 c4 c4 c8 f4 f4",  // f4
      "f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 c8 f8 f8",  // f8
      "c2 c2 c2 c2 c2 c2 c4 c8 c2 c4 c8 c2 c4",  // c2
      "c4 c4 c4 c4 c4 c4 c4 c8 c4 c4 c8 c4 c4",  // c4
      "c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8",  // c8
      "u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf",  // b1
      "bf bf bf bf bf f4 f4 f8 c4 c4 c8 bf bf",  // bf
  };
  auto short_name = [](S t) -> std::string {
    switch (t) {
      case S::Byte:
        return "u1";
      case S::Char:
        return "i1";
      case S::Short:
        return "i2";
      case S::Int:
        return "i4";
      case S::Long:
        return "i8";
      case S::Half:
        return "f2";
      case S::Float:
        return "f4";
      case S::Double:
        return "f8";
      case S::ComplexHalf:
        return "c2";
      case S::ComplexFloat:
        return "c4";
      case S::ComplexDouble:
        return "c8";
      case S::Bool:
        return "b1";
      case S::BFloat16:
        return "bf";
      default:
        return "??";
    }
  };
  for (int i = 0; i < 13; ++i) {
    std::string row;
    for (int j = 0; j < 13; ++j) {
      if (j > 0) row += " ";
      row += short_name(tho::promoteTypes(types[i], types[j]));
      // Promotion is symmetric.
      EXPECT_EQ(tho::promoteTypes(types[i], types[j]), tho::promoteTypes(types[j], types[i]));
    }
    EXPECT_EQ(row, expected[i]) << "row " << types[i];
  }
}

TEST(ScalarType, PromotionRefusals) {
  using S = ScalarType;
  EXPECT_EQ(tho::promoteTypes(S::Float8_e5m2, S::Float8_e5m2), S::Float8_e5m2);
  EXPECT_EQ(tho::promoteTypes(S::Undefined, S::Float), S::Undefined);
  try {
    (void)tho::promoteTypes(S::Float8_e4m3fn, S::Float);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("Promotion for Float8 Types is not supported, attempted to "
                                   "promote Float8_e4m3fn and Float"),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(tho::promoteTypes(S::UInt32, S::Float), S::Float);
  EXPECT_EQ(tho::promoteTypes(S::Double, S::UInt64), S::Double);
  EXPECT_THROW((void)tho::promoteTypes(S::UInt16, S::Long), std::runtime_error);
  EXPECT_THROW((void)tho::promoteTypes(S::UInt16, S::Bool), std::runtime_error);
  EXPECT_THROW((void)tho::promoteTypes(S::UInt32, S::ComplexFloat), std::runtime_error);
  EXPECT_THROW((void)tho::promoteTypes(S::QInt8, S::Float), std::runtime_error);
  EXPECT_THROW((void)tho::promoteTypes(S::Bits8, S::Byte), std::runtime_error);
}

TEST(ScalarType, CppTypeMapping) {
  static_assert(std::is_same_v<tho::ScalarTypeToCPPTypeT<ScalarType::Float>, float>);
  static_assert(std::is_same_v<tho::ScalarTypeToCPPTypeT<ScalarType::Long>, int64_t>);
  static_assert(std::is_same_v<tho::ScalarTypeToCPPTypeT<ScalarType::Half>, tho::Half>);
  static_assert(
      std::is_same_v<tho::ScalarTypeToCPPTypeT<ScalarType::ComplexFloat>, tho::complex<float>>);
  static_assert(tho::CppTypeToScalarType<double>::value == ScalarType::Double);
  static_assert(tho::CppTypeToScalarType<bool>::value == ScalarType::Bool);
  static_assert(tho::CppTypeToScalarType<tho::BFloat16>::value == ScalarType::BFloat16);
  static_assert(tho::CppTypeToScalarType<uint16_t>::value == ScalarType::UInt16);
  // c10 spellings used by extensions resolve to the same entities.
  static_assert(std::is_same_v<c10::ScalarType, ScalarType>);
  static_assert(c10::kFloat == ScalarType::Float);
  SUCCEED();
}

TEST(ScalarType, BComplex32) {
  EXPECT_STREQ(tho::toString(ScalarType::BComplex32), "BComplex32");
  EXPECT_EQ(tho::elementSize(ScalarType::BComplex32), 4u);
  EXPECT_TRUE(tho::isComplexType(ScalarType::BComplex32));
  EXPECT_EQ(tho::toRealValueType(ScalarType::BComplex32), ScalarType::BFloat16);
  EXPECT_EQ(tho::toComplexType(ScalarType::BFloat16), ScalarType::BComplex32);
  static_assert(std::is_same_v<tho::ScalarTypeToCPPTypeT<ScalarType::BComplex32>,
                               tho::complex<tho::BFloat16>>);
  static_assert(tho::CppTypeToScalarType<tho::complex<tho::BFloat16>>::value ==
                ScalarType::BComplex32);
  static_assert(c10::kBComplex32 == ScalarType::BComplex32);
}

TEST(ScalarType, ToUnderlyingIsTheQuantizedStorageType) {
  static_assert(tho::toUnderlying(ScalarType::QUInt8) == ScalarType::Byte);
  static_assert(tho::toUnderlying(ScalarType::QUInt4x2) == ScalarType::Byte);
  static_assert(tho::toUnderlying(ScalarType::QInt8) == ScalarType::Char);
  static_assert(tho::toUnderlying(ScalarType::QInt32) == ScalarType::Int);
  static_assert(tho::toUnderlying(ScalarType::Float) == ScalarType::Float);
  EXPECT_EQ(c10::toUnderlying(ScalarType::QUInt2x4), ScalarType::Byte);
}

TEST(ScalarType, ImplSpelling) {
  static_assert(std::is_same_v<c10::impl::ScalarTypeToCPPTypeT<ScalarType::Half>, tho::Half>);
  static_assert(
      std::is_same_v<decltype(c10::impl::ScalarTypeToCPPType<ScalarType::Long>::t), int64_t>);
}

TEST(ScalarType, ForAllAndVariants) {
  std::vector<std::string> names;
#define ST_TEST_NAME_(cpp_type, name) \
  names.push_back(#name);             \
  EXPECT_EQ(sizeof(cpp_type), tho::elementSize(ScalarType::name));
  AT_FORALL_SCALAR_TYPES_AND3(Half, Bool, BComplex32, ST_TEST_NAME_)
  EXPECT_EQ(names.size(), 10u);
  EXPECT_EQ(names.back(), "BComplex32");
  names.clear();
  AT_FORALL_SCALAR_TYPES_AND7(Half, BFloat16, Bool, ComplexFloat, ComplexDouble, UInt16,
                              Float8_e5m2, ST_TEST_NAME_)
  EXPECT_EQ(names.size(), 14u);
  names.clear();
  AT_FORALL_SCALAR_TYPES_AND(Bool, ST_TEST_NAME_)
  AT_FORALL_SCALAR_TYPES_AND2(Half, BFloat16, ST_TEST_NAME_)
  EXPECT_EQ(names.size(), 17u);
  names.clear();
  AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_EXCEPT_COMPLEX_HALF_F8NZ(ST_TEST_NAME_)
  EXPECT_EQ(names.size(), 14u);
  names.clear();
  AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(ST_TEST_NAME_)
  EXPECT_EQ(names.back(), "Float8_e8m0fnu");
#undef ST_TEST_NAME_
}

}  // namespace
