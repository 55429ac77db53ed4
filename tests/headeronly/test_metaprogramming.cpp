#include <torch/headeronly/util/Metaprogramming.h>

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <type_traits>

namespace {

int free_function(double, const std::string&) { return 0; }

TEST(Metaprogramming, FunctionTraits) {
  using F = c10::guts::infer_function_traits_t<decltype(&free_function)>;
  static_assert(std::is_same_v<F::return_type, int>);
  static_assert(F::number_of_parameters == 2);
  static_assert(std::is_same_v<F::parameter_types,
                               c10::guts::typelist::typelist<double, const std::string&>>);
  auto lambda = [](int a, int b) -> long { return a + b; };
  using G = c10::guts::infer_function_traits_t<decltype(lambda)>;
  static_assert(std::is_same_v<G::func_type, long(int, int)>);
  using H = c10::guts::make_function_traits_t<void, c10::guts::typelist::typelist<char>>;
  static_assert(std::is_same_v<H::func_type, void(char)>);
  EXPECT_EQ(lambda(1, 2), 3);
}

TEST(Metaprogramming, OffsetIndexSequence) {
  static_assert(
      std::is_same_v<c10::guts::make_offset_index_sequence<2, 3>, std::index_sequence<2, 3, 4>>);
  static_assert(std::is_same_v<c10::guts::make_offset_index_sequence<5, 0>, std::index_sequence<>>);
}

TEST(Metaprogramming, TupleSlicing) {
  const auto t = std::make_tuple(1, std::string("two"), 3.0, 'c');
  EXPECT_EQ((c10::guts::tuple_take<decltype(t), 2>(t)), std::make_tuple(1, std::string("two")));
  EXPECT_EQ((c10::guts::tuple_take<decltype(t), -2>(t)), std::make_tuple(3.0, 'c'));
  EXPECT_EQ((c10::guts::tuple_slice<decltype(t), 1, 2>(t)),
            std::make_tuple(std::string("two"), 3.0));
  EXPECT_EQ(c10::guts::tuple_elements(t, std::index_sequence<3, 0>()), std::make_tuple('c', 1));
}

TEST(Metaprogramming, TupleMapKeepsOrder) {
  int calls = 0;
  auto mapped = c10::guts::tuple_map(std::make_tuple(1, 2.5, 3), [&](auto v) {
    ++calls;
    return static_cast<int>(v * 10) + calls;
  });
  EXPECT_EQ(mapped, std::make_tuple(11, 27, 33));
}

}  // namespace
