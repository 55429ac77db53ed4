// THO_DISPATCH_SWITCH / THO_DISPATCH_CASE (torch/headeronly/core/Dispatch.h).
#include <torch/headeronly/core/Dispatch.h>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using torch::headeronly::ScalarType;
using torch::headeronly::ScalarTypeToCPPTypeT;

// Every dtype that has a C++ type, in ordinal order, plus Undefined.
std::vector<ScalarType> allDtypes() {
  std::vector<ScalarType> out;
  for (int i = 0; i <= static_cast<int>(ScalarType::Undefined); ++i) {
    out.push_back(static_cast<ScalarType>(i));
  }
  return out;
}

// Runs `fn` and returns the message of the std::runtime_error it throws
// (failing the test if it throws nothing).
template <typename F>
std::string errorOf(F&& fn) {
  try {
    fn();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a std::runtime_error";
  return "";
}

double twiceAsDouble(ScalarType t, double x) {
  return THO_DISPATCH_SWITCH(t, "twice", THO_DISPATCH_CASE(ScalarType::Float, [&] {
                               return static_cast<double>(scalar_t(x) * 2);
                             }) THO_DISPATCH_CASE(ScalarType::Int, [&] {
                               return static_cast<double>(static_cast<scalar_t>(x) * 2);
                             }));
}

}  // namespace

TEST(DispatchTest, CaseBindsScalarTAndReturnsTheResult) {
  EXPECT_DOUBLE_EQ(twiceAsDouble(ScalarType::Float, 1.25), 2.5);
  // Int truncates before doubling: proof that scalar_t was int there.
  EXPECT_DOUBLE_EQ(twiceAsDouble(ScalarType::Int, 1.75), 2.0);
}

// One case per dtype, generated from the dtype X-macro: in each, scalar_t
// must be exactly the dtype's C++ type.
TEST(DispatchTest, EveryDtypeBindsItsCppType) {
#define CHECK_CASE_(cpp_type, name)                           \
  THO_DISPATCH_CASE(ScalarType::name, [&] {                   \
    static_assert(std::is_same_v<scalar_t, cpp_type>, #name); \
    return ScalarType::name;                                  \
  })
  int handled = 0;
  for (ScalarType t : allDtypes()) {
    if (t == ScalarType::Undefined) {
      continue;
    }
    const ScalarType seen = THO_DISPATCH_SWITCH(
        t, "every_dtype", AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(CHECK_CASE_));
    EXPECT_EQ(seen, t);
    ++handled;
  }
#undef CHECK_CASE_
  EXPECT_EQ(handled, static_cast<int>(ScalarType::Undefined));
}

TEST(DispatchTest, SpotCheckOfScalarTypes) {
  auto check = [](ScalarType t) {
    return THO_DISPATCH_SWITCH(
        t, "spot", THO_DISPATCH_CASE(ScalarType::Byte, [] {
          return std::is_same_v<scalar_t, uint8_t>;
        }) THO_DISPATCH_CASE(ScalarType::Long, [] {
          return std::is_same_v<scalar_t, int64_t>;
        }) THO_DISPATCH_CASE(ScalarType::Half, [] {
          return std::is_same_v<scalar_t, torch::headeronly::Half>;
        }) THO_DISPATCH_CASE(ScalarType::ComplexFloat, [] {
          return std::is_same_v<scalar_t, torch::headeronly::complex<float>>;
        }) THO_DISPATCH_CASE(ScalarType::Bool, [] { return std::is_same_v<scalar_t, bool>; }));
  };
  for (ScalarType t : {ScalarType::Byte, ScalarType::Long, ScalarType::Half,
                       ScalarType::ComplexFloat, ScalarType::Bool}) {
    EXPECT_TRUE(check(t)) << t;
  }
}

TEST(DispatchTest, UnhandledDtypeNamesTheLabelAndTheDtype) {
  for (ScalarType t : allDtypes()) {
    if (t == ScalarType::Float || t == ScalarType::Int) {
      continue;
    }
    const std::string msg = errorOf([&] { twiceAsDouble(t, 1.0); });
    const std::string expected =
        std::string("\"twice\" not implemented for '") + torch::headeronly::toString(t) + "'";
    EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  }
  const std::string half = errorOf([] {
    THO_DISPATCH_SWITCH(ScalarType::Half, "my_kernel", THO_DISPATCH_CASE(ScalarType::Float, [] {}));
  });
  EXPECT_NE(half.find("\"my_kernel\" not implemented for 'Half'"), std::string::npos) << half;
}

TEST(DispatchTest, VoidBodiesAndSideEffects) {
  int calls = 0;
  THO_DISPATCH_SWITCH(ScalarType::Double, "void_body", THO_DISPATCH_CASE(ScalarType::Double, [&] {
                        ++calls;
                      }) THO_DISPATCH_CASE(ScalarType::Float, [&] { calls += 100; }));
  EXPECT_EQ(calls, 1);
}

TEST(DispatchTest, TypeExpressionIsEvaluatedOnce) {
  int evaluations = 0;
  auto dtype = [&] {
    ++evaluations;
    return ScalarType::Float;
  };
  const int r =
      THO_DISPATCH_SWITCH(dtype(), "once", THO_DISPATCH_CASE(ScalarType::Float, [] { return 7; }));
  EXPECT_EQ(r, 7);
  EXPECT_EQ(evaluations, 1);
  evaluations = 0;
  EXPECT_THROW(THO_DISPATCH_SWITCH(dtype(), "once", ), std::runtime_error);
  EXPECT_EQ(evaluations, 1);
}

// The inner switch's scalar_t shadows the outer one; the outer type stays
// reachable through an alias taken before the inner switch.
TEST(DispatchTest, NestedDispatch) {
  auto pair_size = [](ScalarType a, ScalarType b) {
    return THO_DISPATCH_SWITCH(
        a, "outer", THO_DISPATCH_CASE(ScalarType::Double, [&] {
          using outer_t = scalar_t;
          return THO_DISPATCH_SWITCH(b, "inner", THO_DISPATCH_CASE(ScalarType::Short, [&] {
                                       static_assert(std::is_same_v<outer_t, double>);
                                       static_assert(std::is_same_v<scalar_t, int16_t>);
                                       return sizeof(outer_t) + sizeof(scalar_t);
                                     }) THO_DISPATCH_CASE(ScalarType::Byte, [&] {
                                       return sizeof(outer_t) + sizeof(scalar_t);
                                     }));
        }) THO_DISPATCH_CASE(ScalarType::Float, [&] { return sizeof(scalar_t); }));
  };
  EXPECT_EQ(pair_size(ScalarType::Double, ScalarType::Short), 10u);
  EXPECT_EQ(pair_size(ScalarType::Double, ScalarType::Byte), 9u);
  EXPECT_EQ(pair_size(ScalarType::Float, ScalarType::Byte), 4u);
  const std::string msg = errorOf([&] { pair_size(ScalarType::Double, ScalarType::Long); });
  EXPECT_NE(msg.find("\"inner\" not implemented for 'Long'"), std::string::npos) << msg;
}

// Each macro is one statement: usable as an unbraced if/else branch.
TEST(DispatchTest, SingleStatement) {
  int taken = 0;
  for (bool flag : {true, false}) {
    if (flag)
      THO_DISPATCH_SWITCH(ScalarType::Float, "branch",
                          THO_DISPATCH_CASE(ScalarType::Float, [&] { taken += 1; }));
    else
      THO_DISPATCH_SWITCH(ScalarType::Long, "branch",
                          THO_DISPATCH_CASE(ScalarType::Long, [&] { taken += 10; }));
  }
  EXPECT_EQ(taken, 11);
}

TEST(DispatchTest, CustomHintName) {
  const size_t n = THO_DISPATCH_SWITCH(
      ScalarType::Short, "hint", THO_PRIVATE_CASE_TYPE_USING_HINT(ScalarType::Short, elem_t, [] {
        static_assert(std::is_same_v<elem_t, int16_t>);
        return sizeof(elem_t);
      }));
  EXPECT_EQ(n, 2u);
}

// Custom switch and case macros built from the *_TMPL forms: the preludes
// run once per switch and once per taken case, and the error macro is ours.
namespace {
int g_switch_preludes = 0;
int g_case_preludes = 0;
}  // namespace
#define TEST_SWITCH_PRELUDE_(name, dtype) (++g_switch_preludes)
#define TEST_CASE_PRELUDE_(enum_type) (++g_case_preludes)
#define TEST_CHECK_(cond, ...) STD_TORCH_CHECK_MSG(cond, "custom: ", __VA_ARGS__)
#define TEST_CASE_USING_HINT_(enum_type, HINT, ...) \
  THO_PRIVATE_CASE_TYPE_USING_HINT_TMPL(TEST_CASE_PRELUDE_, enum_type, HINT, __VA_ARGS__)
#define TEST_DISPATCH_CASE_(enum_type, ...) \
  THO_DISPATCH_CASE_TMPL(TEST_CASE_USING_HINT_, enum_type, __VA_ARGS__)
#define TEST_DISPATCH_SWITCH_(TYPE, NAME, ...) \
  THO_DISPATCH_SWITCH_TMPL(TEST_SWITCH_PRELUDE_, TEST_CHECK_, TYPE, NAME, __VA_ARGS__)

TEST(DispatchTest, TemplatedSwitchAndCase) {
  g_switch_preludes = g_case_preludes = 0;
  const size_t n =
      TEST_DISPATCH_SWITCH_(ScalarType::Long, "tmpl",
                            TEST_DISPATCH_CASE_(ScalarType::Long, [] { return sizeof(scalar_t); }));
  EXPECT_EQ(n, 8u);
  EXPECT_EQ(g_switch_preludes, 1);
  EXPECT_EQ(g_case_preludes, 1);
  const std::string msg = errorOf([] {
    TEST_DISPATCH_SWITCH_(ScalarType::Bool, "tmpl", TEST_DISPATCH_CASE_(ScalarType::Long, [] {}));
  });
  EXPECT_NE(msg.find("custom: \"tmpl\" not implemented for 'Bool'"), std::string::npos) << msg;
  EXPECT_EQ(g_switch_preludes, 2);
  EXPECT_EQ(g_case_preludes, 1);
}
