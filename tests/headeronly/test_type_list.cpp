#include <torch/headeronly/util/TypeList.h>

#include <gtest/gtest.h>

#include <tuple>
#include <type_traits>

namespace {

namespace tl = c10::guts::typelist;
using L = tl::typelist<int, float, double>;

TEST(TypeList, SizeHeadElement) {
  static_assert(tl::size<L>::value == 3);
  static_assert(tl::size<tl::typelist<>>::value == 0);
  static_assert(std::is_same_v<tl::head_t<L>, int>);
  static_assert(std::is_same_v<tl::element_t<2, L>, double>);
  static_assert(std::is_same_v<tl::head_with_default_t<char, tl::typelist<>>, char>);
  static_assert(std::is_same_v<tl::head_with_default_t<char, L>, int>);
}

TEST(TypeList, TakeDropConcat) {
  static_assert(std::is_same_v<tl::take_t<L, 2>, tl::typelist<int, float>>);
  static_assert(std::is_same_v<tl::drop_t<L, 1>, tl::typelist<float, double>>);
  static_assert(std::is_same_v<tl::drop_t<L, 3>, tl::typelist<>>);
  static_assert(std::is_same_v<tl::drop_if_nonempty_t<tl::typelist<>, 1>, tl::typelist<>>);
  static_assert(std::is_same_v<tl::concat_t<L, tl::typelist<char>, tl::typelist<>>,
                               tl::typelist<int, float, double, char>>);
  static_assert(std::is_same_v<tl::concat_t<>, tl::typelist<>>);
}

TEST(TypeList, Predicates) {
  static_assert(tl::contains<L, float>::value);
  static_assert(!tl::contains<L, char>::value);
  static_assert(tl::all<std::is_arithmetic, L>::value);
  static_assert(!tl::all<std::is_integral, L>::value);
  static_assert(tl::true_for_any_type<std::is_integral, L>::value);
  static_assert(!tl::true_for_any_type<std::is_pointer, L>::value);
  static_assert(!c10::guts::false_t<int>::value);
}

TEST(TypeList, Tuples) {
  static_assert(std::is_same_v<tl::to_tuple_t<L>, std::tuple<int, float, double>>);
  static_assert(std::is_same_v<tl::from_tuple_t<std::tuple<char, int>>, tl::typelist<char, int>>);
  // The same names are reachable from torch::headeronly.
  static_assert(torch::headeronly::guts::typelist::size<L>::value == 3);
}

}  // namespace
