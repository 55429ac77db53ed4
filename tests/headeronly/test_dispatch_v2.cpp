// THO_DISPATCH_V2 and the AT_* type sets (torch/headeronly/core/Dispatch_v2.h).
#include <torch/headeronly/core/Dispatch_v2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using torch::headeronly::CppTypeToScalarType;
using torch::headeronly::ScalarType;
using torch::headeronly::toString;
namespace tho = torch::headeronly;

std::vector<ScalarType> allDtypes() {
  std::vector<ScalarType> out;
  for (int i = 0; i <= static_cast<int>(ScalarType::Undefined); ++i) {
    out.push_back(static_cast<ScalarType>(i));
  }
  return out;
}

bool contains(const std::vector<ScalarType>& v, ScalarType t) {
  return std::find(v.begin(), v.end(), t) != v.end();
}

// Dispatches every dtype through `run` (a THO_DISPATCH_V2 whose body
// returns the dtype its scalar_t maps back to). Listed dtypes must come back
// unchanged, which proves scalar_t is exactly their C++ type; every other
// dtype must throw with the label and its name.
template <typename Run>
void expectHandles(const char* label, Run run, const std::vector<ScalarType>& expected) {
  for (ScalarType t : allDtypes()) {
    if (contains(expected, t)) {
      EXPECT_EQ(run(t), t) << label << " " << t;
      continue;
    }
    try {
      run(t);
      ADD_FAILURE() << label << " accepted " << t;
    } catch (const std::runtime_error& e) {
      const std::string want =
          std::string("\"") + label + "\" not implemented for '" + toString(t) + "'";
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

// THO_DISPATCH_V2 over the given list, body reporting scalar_t's dtype.
#define ROUND_TRIP_(LABEL, ...)                                                                \
  [](ScalarType t) {                                                                           \
    return THO_DISPATCH_V2(                                                                    \
        t, LABEL, AT_WRAP([&] { return CppTypeToScalarType<scalar_t>::value; }), __VA_ARGS__); \
  }

}  // namespace

// Contents and order of each set, as PyTorch defines them.
TEST(DispatchV2Test, TypeSetContents) {
  using V = std::vector<ScalarType>;
  EXPECT_EQ((V{AT_FLOATING_TYPES}), (V{ScalarType::Double, ScalarType::Float}));
  EXPECT_EQ((V{AT_INTEGRAL_TYPES}), (V{ScalarType::Byte, ScalarType::Char, ScalarType::Int,
                                       ScalarType::Long, ScalarType::Short}));
  EXPECT_EQ((V{AT_BAREBONES_UNSIGNED_TYPES}),
            (V{ScalarType::UInt16, ScalarType::UInt32, ScalarType::UInt64}));
  EXPECT_EQ((V{AT_INTEGRAL_TYPES_V2}),
            (V{ScalarType::Byte, ScalarType::Char, ScalarType::Int, ScalarType::Long,
               ScalarType::Short, ScalarType::UInt16, ScalarType::UInt32, ScalarType::UInt64}));
  EXPECT_EQ((V{AT_COMPLEX_TYPES}), (V{ScalarType::ComplexDouble, ScalarType::ComplexFloat}));
  EXPECT_EQ((V{AT_QINT_TYPES}), (V{ScalarType::QInt8, ScalarType::QUInt8, ScalarType::QInt32}));
  EXPECT_EQ((V{AT_FLOAT8_TYPES}),
            (V{ScalarType::Float8_e5m2, ScalarType::Float8_e5m2fnuz, ScalarType::Float8_e4m3fn,
               ScalarType::Float8_e4m3fnuz, ScalarType::Float8_e8m0fnu}));
  EXPECT_EQ((V{AT_ALL_TYPES}),
            (V{ScalarType::Byte, ScalarType::Char, ScalarType::Int, ScalarType::Long,
               ScalarType::Short, ScalarType::Double, ScalarType::Float}));
  EXPECT_EQ((V{AT_ALL_TYPES_AND_COMPLEX}),
            (V{ScalarType::Byte, ScalarType::Char, ScalarType::Int, ScalarType::Long,
               ScalarType::Short, ScalarType::Double, ScalarType::Float, ScalarType::ComplexDouble,
               ScalarType::ComplexFloat}));
}

// Each set dispatched alone (both spellings: bare and through AT_EXPAND).
TEST(DispatchV2Test, EachTypeSetDispatchesExactlyItsDtypes) {
  using V = std::vector<ScalarType>;
  expectHandles("floating", ROUND_TRIP_("floating", AT_FLOATING_TYPES), V{AT_FLOATING_TYPES});
  expectHandles("integral", ROUND_TRIP_("integral", AT_EXPAND(AT_INTEGRAL_TYPES)),
                V{AT_INTEGRAL_TYPES});
  expectHandles("integral_v2", ROUND_TRIP_("integral_v2", AT_INTEGRAL_TYPES_V2),
                V{AT_INTEGRAL_TYPES_V2});
  expectHandles("unsigned", ROUND_TRIP_("unsigned", AT_EXPAND(AT_BAREBONES_UNSIGNED_TYPES)),
                V{AT_BAREBONES_UNSIGNED_TYPES});
  expectHandles("all", ROUND_TRIP_("all", AT_EXPAND(AT_ALL_TYPES)), V{AT_ALL_TYPES});
  expectHandles("complex", ROUND_TRIP_("complex", AT_EXPAND(AT_COMPLEX_TYPES)),
                V{AT_COMPLEX_TYPES});
  expectHandles("all_and_complex",
                ROUND_TRIP_("all_and_complex", AT_EXPAND(AT_ALL_TYPES_AND_COMPLEX)),
                V{AT_ALL_TYPES_AND_COMPLEX});
  expectHandles("float8", ROUND_TRIP_("float8", AT_EXPAND(AT_FLOAT8_TYPES)), V{AT_FLOAT8_TYPES});
  expectHandles("qint", ROUND_TRIP_("qint", AT_EXPAND(AT_QINT_TYPES)), V{AT_QINT_TYPES});
}

TEST(DispatchV2Test, SetsMixedWithSingleDtypes) {
  expectHandles("mixed",
                ROUND_TRIP_("mixed", AT_EXPAND(AT_FLOATING_TYPES), tho::kHalf, tho::kBFloat16),
                {ScalarType::Double, ScalarType::Float, ScalarType::Half, ScalarType::BFloat16});
  expectHandles("single", ROUND_TRIP_("single", ScalarType::Bool), {ScalarType::Bool});
  expectHandles("c10_spelling", ROUND_TRIP_("c10_spelling", c10::kComplexHalf),
                {ScalarType::ComplexHalf});
}

// A long list: 24 dtypes from four sets and four singles.
TEST(DispatchV2Test, LongList) {
  using V = std::vector<ScalarType>;
  V expected{AT_ALL_TYPES_AND_COMPLEX, AT_FLOAT8_TYPES, AT_BAREBONES_UNSIGNED_TYPES, AT_QINT_TYPES};
  for (ScalarType t : {tho::kHalf, tho::kBFloat16, tho::kBool, tho::kComplexHalf}) {
    expected.push_back(t);
  }
  ASSERT_EQ(expected.size(), 24u);
  expectHandles("long",
                ROUND_TRIP_("long", AT_EXPAND(AT_ALL_TYPES_AND_COMPLEX), AT_EXPAND(AT_FLOAT8_TYPES),
                            AT_EXPAND(AT_BAREBONES_UNSIGNED_TYPES), AT_EXPAND(AT_QINT_TYPES),
                            tho::kHalf, tho::kBFloat16, tho::kBool, tho::kComplexHalf),
                expected);
}

TEST(DispatchV2Test, ScalarTIsTheCppType) {
  auto check = [](ScalarType t) {
    return THO_DISPATCH_V2(
        t, "exact", AT_WRAP([&] {
          return std::is_same_v<scalar_t, tho::ScalarTypeToCPPTypeT<ScalarType::Float>> ||
                 std::is_same_v<scalar_t, tho::Half> || std::is_same_v<scalar_t, uint64_t>;
        }),
        ScalarType::Float, tho::kHalf, ScalarType::UInt64);
  };
  EXPECT_TRUE(check(ScalarType::Float));
  EXPECT_TRUE(check(ScalarType::Half));
  EXPECT_TRUE(check(ScalarType::UInt64));
}

// Commas at the top level of the body (capture list, template arguments,
// braced initializers, declarators) must not split it.
TEST(DispatchV2Test, BodyWithTopLevelCommas) {
  int offset = 3;  // not const: a const int would not need capturing
  const int scale = 2;
  const int r = THO_DISPATCH_V2(ScalarType::Int, "commas", AT_WRAP([&, offset] {
                                  std::pair<scalar_t, scalar_t> p{1, 2};
                                  scalar_t a = p.first, b = p.second;
                                  return static_cast<int>(a + b) * scale + offset;
                                }),
                                AT_EXPAND(AT_INTEGRAL_TYPES));
  EXPECT_EQ(r, 9);
  // PyTorch's own extensions also wrap the lambda in an extra pair of
  // parentheses.
  const int r2 = THO_DISPATCH_V2(ScalarType::Long, "double_parens",
                                 AT_WRAP(([&]() { return static_cast<int>(sizeof(scalar_t)); })),
                                 AT_INTEGRAL_TYPES);
  EXPECT_EQ(r2, 8);
}

TEST(DispatchV2Test, VoidBodyAndTypeEvaluatedOnce) {
  int evaluations = 0;
  double sum = 0;
  auto dtype = [&] {
    ++evaluations;
    return ScalarType::Double;
  };
  THO_DISPATCH_V2(dtype(), "void", AT_WRAP([&] { sum += scalar_t(1.5); }), AT_FLOATING_TYPES);
  EXPECT_EQ(evaluations, 1);
  EXPECT_DOUBLE_EQ(sum, 1.5);
}

TEST(DispatchV2Test, ErrorMessage) {
  try {
    THO_DISPATCH_V2(ScalarType::Half, "my_kernel", AT_WRAP([] {}), AT_FLOATING_TYPES);
    FAIL() << "Half is not in AT_FLOATING_TYPES";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"my_kernel\" not implemented for 'Half'"),
              std::string::npos)
        << e.what();
  }
}

TEST(DispatchV2Test, NestedDispatch) {
  auto bytes = [](ScalarType a, ScalarType b) {
    return THO_DISPATCH_V2(a, "outer", AT_WRAP([&] {
                             using outer_t = scalar_t;
                             return THO_DISPATCH_V2(
                                 b, "inner",
                                 AT_WRAP([&] { return sizeof(outer_t) * 100 + sizeof(scalar_t); }),
                                 AT_EXPAND(AT_INTEGRAL_TYPES), tho::kBool);
                           }),
                           AT_EXPAND(AT_FLOATING_TYPES), tho::kHalf);
  };
  EXPECT_EQ(bytes(ScalarType::Double, ScalarType::Short), 802u);
  EXPECT_EQ(bytes(ScalarType::Half, ScalarType::Bool), 201u);
  EXPECT_THROW(bytes(ScalarType::Float, ScalarType::Float), std::runtime_error);
  EXPECT_THROW(bytes(ScalarType::Long, ScalarType::Long), std::runtime_error);
}

TEST(DispatchV2Test, SingleStatement) {
  int taken = 0;
  for (bool flag : {true, false}) {
    if (flag)
      THO_DISPATCH_V2(ScalarType::Float, "then", AT_WRAP([&] { taken += 1; }), AT_FLOATING_TYPES);
    else
      THO_DISPATCH_V2(ScalarType::Byte, "else", AT_WRAP([&] { taken += 10; }), AT_INTEGRAL_TYPES);
  }
  EXPECT_EQ(taken, 11);
}

// THO_DISPATCH_V2_TMPL with custom switch and case macros.
namespace {
int g_cases_entered = 0;

TEST(DispatchV2Test, ForAllScalarTypesV2) {
  std::vector<std::pair<ScalarType, size_t>> seen;
#define DV2_TEST_RECORD_(cpp_type, dtype) seen.emplace_back(dtype, sizeof(cpp_type));
  AT_FORALL_SCALAR_TYPES_V2(DV2_TEST_RECORD_, AT_EXPAND(AT_ALL_SCALAR_TYPES_WITH_COMPLEX))
#undef DV2_TEST_RECORD_
  ASSERT_EQ(seen.size(), 19u);
  for (const auto& [dtype, size] : seen) {
    EXPECT_EQ(size, torch::headeronly::elementSize(dtype)) << toString(dtype);
  }
  EXPECT_EQ(seen[9].first, ScalarType::BComplex32);
}

TEST(DispatchV2Test, OpaqueTypesAndCounting) {
  static_assert(AT_NUM_ARGS(AT_OPAQUE_TYPES) == 5);
  static_assert(AT_NUM_ARGS(x) == 1);
  static_assert(AT_CONCAT(1, 2) == 12);
  int total = 0;
#define DV2_TEST_ADD_(x, n) total += n;
  THO_AP3(DV2_TEST_ADD_, 2, a, b, c)
  THO_AP_VAR_TMPL(DV2_TEST_ADD_, 10, ignored, a, b)
#undef DV2_TEST_ADD_
  EXPECT_EQ(total, 26);
  expectHandles("opaque", ROUND_TRIP_("opaque", AT_EXPAND(AT_OPAQUE_TYPES)),
                {ScalarType::Byte, ScalarType::UInt16, ScalarType::UInt32, ScalarType::UInt64,
                 ScalarType::ComplexDouble});
  expectHandles(
      "all", ROUND_TRIP_("all", AT_EXPAND(AT_ALL_SCALAR_TYPES_WITH_COMPLEX)),
      {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long,
       ScalarType::Half, ScalarType::Float, ScalarType::Double, ScalarType::ComplexHalf,
       ScalarType::BComplex32, ScalarType::ComplexFloat, ScalarType::ComplexDouble,
       ScalarType::Bool, ScalarType::BFloat16, ScalarType::Float8_e5m2, ScalarType::Float8_e4m3fn,
       ScalarType::Float8_e5m2fnuz, ScalarType::Float8_e4m3fnuz, ScalarType::Float8_e8m0fnu});
}

}  // namespace
#define V2_TEST_CASE_PRELUDE_(enum_type) (++g_cases_entered)
#define V2_TEST_CASE_USING_HINT_(enum_type, HINT, ...) \
  THO_PRIVATE_CASE_TYPE_USING_HINT_TMPL(V2_TEST_CASE_PRELUDE_, enum_type, HINT, __VA_ARGS__)
#define V2_TEST_DISPATCH_CASE_(enum_type, ...) \
  THO_DISPATCH_CASE_TMPL(V2_TEST_CASE_USING_HINT_, enum_type, __VA_ARGS__)
#define V2_TEST_DISPATCH_SWITCH_(TYPE, NAME, ...) \
  THO_DISPATCH_SWITCH_TMPL(THO_EMPTY, STD_TORCH_CHECK_MSG, TYPE, NAME, __VA_ARGS__)

TEST(DispatchV2Test, TemplatedVariant) {
  g_cases_entered = 0;
  const size_t n =
      THO_DISPATCH_V2_TMPL(V2_TEST_DISPATCH_SWITCH_, V2_TEST_DISPATCH_CASE_, ScalarType::Float,
                           "tmpl", AT_WRAP([&, n = 0] { return sizeof(scalar_t) + n; }),
                           AT_EXPAND(AT_FLOATING_TYPES), tho::kHalf);
  EXPECT_EQ(n, 4u);
  EXPECT_EQ(g_cases_entered, 1);
  EXPECT_THROW(THO_DISPATCH_V2_TMPL(V2_TEST_DISPATCH_SWITCH_, V2_TEST_DISPATCH_CASE_,
                                    ScalarType::Long, "tmpl", AT_WRAP([] {}), AT_FLOATING_TYPES),
               std::runtime_error);
  EXPECT_EQ(g_cases_entered, 1);
}
