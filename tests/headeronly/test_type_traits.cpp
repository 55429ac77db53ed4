#include <torch/headeronly/util/TypeTraits.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct NoEq {};
struct Functor {
  int operator()(double) const { return 1; }
};

TEST(TypeTraits, Comparable) {
  static_assert(c10::guts::is_equality_comparable<int>::value);
  static_assert(!c10::guts::is_equality_comparable<NoEq>::value);
  static_assert(c10::guts::is_hashable<std::string>::value);
  static_assert(!c10::guts::is_hashable<NoEq>::value);
}

TEST(TypeTraits, Functions) {
  static_assert(c10::guts::is_function_type<int(double)>::value);
  static_assert(!c10::guts::is_function_type<int (*)(double)>::value);
  static_assert(c10::guts::is_functor<Functor>::value);
  static_assert(!c10::guts::is_functor<int>::value);
  int captured = 3;
  auto stateless = [](int a) { return a; };
  auto stateful = [captured](int a) { return a + captured; };
  static_assert(c10::guts::is_stateless_lambda<decltype(stateless)>::value);
  static_assert(!c10::guts::is_stateless_lambda<decltype(stateful)>::value);
  EXPECT_EQ(stateful(1), 4);
}

TEST(TypeTraits, Templates) {
  static_assert(c10::guts::is_instantiation_of<std::vector, std::vector<int>>::value);
  static_assert(!c10::guts::is_instantiation_of<std::vector, int>::value);
  static_assert(c10::guts::is_type_condition<std::is_reference>::value);
  static_assert(c10::guts::is_fundamental<int>::value);
  static_assert(!c10::guts::is_fundamental<NoEq>::value);
}

}  // namespace
