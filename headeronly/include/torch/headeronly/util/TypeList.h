// guts::typelist: compile-time lists of types, and the operations the
// boxing adapters and dispatch helpers need on them (size, head, element,
// take/drop, concat, contains, all/any, tuple conversion).
// Header-only: depends on nothing but the standard library.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace torch::headeronly::guts {

// A dependent false, for static_asserts in templates that must only fire
// when instantiated.
template <class... T>
struct false_t : std::false_type {};

namespace typelist {

template <class... Items>
struct typelist final {
  // Only a tag: never constructed.
  typelist() = delete;
};

template <class TypeList>
struct size final {
  static_assert(false_t<TypeList>::value, "size<T>: T is not a typelist");
};
template <class... Types>
struct size<typelist<Types...>> final {
  static constexpr size_t value = sizeof...(Types);
};

template <class TypeList>
struct to_tuple final {
  static_assert(false_t<TypeList>::value, "to_tuple<T>: T is not a typelist");
};
template <class... Types>
struct to_tuple<typelist<Types...>> final {
  using type = std::tuple<Types...>;
};
template <class TypeList>
using to_tuple_t = typename to_tuple<TypeList>::type;

template <class Tuple>
struct from_tuple final {
  static_assert(false_t<Tuple>::value, "from_tuple<T>: T is not a std::tuple");
};
template <class... Types>
struct from_tuple<std::tuple<Types...>> final {
  using type = typelist<Types...>;
};
template <class Tuple>
using from_tuple_t = typename from_tuple<Tuple>::type;

template <class... TypeLists>
struct concat final {
  static_assert(false_t<TypeLists...>::value, "concat<...>: every argument must be a typelist");
};
template <>
struct concat<> final {
  using type = typelist<>;
};
template <class... Types>
struct concat<typelist<Types...>> final {
  using type = typelist<Types...>;
};
template <class... A, class... B, class... Rest>
struct concat<typelist<A...>, typelist<B...>, Rest...> final {
  using type = typename concat<typelist<A..., B...>, Rest...>::type;
};
template <class... TypeLists>
using concat_t = typename concat<TypeLists...>::type;

namespace detail {
template <class TypeList, class Type>
struct contains_impl : std::false_type {};
template <class Type, class... Types>
struct contains_impl<typelist<Types...>, Type> : std::disjunction<std::is_same<Type, Types>...> {};
}  // namespace detail

// std::true_type when Type is one of the list's items.
template <class TypeList, class Type>
using contains = typename detail::contains_impl<TypeList, Type>::type;

// Whether Condition<T>::value holds for every / some item.
template <template <class> class Condition, class TypeList>
struct all {
  static_assert(false_t<TypeList>::value, "all<C, T>: T is not a typelist");
};
template <template <class> class Condition, class... Types>
struct all<Condition, typelist<Types...>> : std::conjunction<Condition<Types>...> {};

template <template <class> class Condition, class TypeList>
struct true_for_any_type final {
  static_assert(false_t<TypeList>::value, "true_for_any_type<C, T>: T is not a typelist");
};
template <template <class> class Condition, class... Types>
struct true_for_any_type<Condition, typelist<Types...>> final
    : std::disjunction<Condition<Types>...> {};

template <class TypeList>
struct head final {
  static_assert(false_t<TypeList>::value, "head<T>: T is not a non-empty typelist");
};
template <class Head, class... Tail>
struct head<typelist<Head, Tail...>> final {
  using type = Head;
};
template <class TypeList>
using head_t = typename head<TypeList>::type;

// The first item, or Default for an empty list.
template <class Default, class TypeList>
struct head_with_default final {
  using type = Default;
};
template <class Default, class Head, class... Tail>
struct head_with_default<Default, typelist<Head, Tail...>> final {
  using type = Head;
};
template <class Default, class TypeList>
using head_with_default_t = typename head_with_default<Default, TypeList>::type;

template <size_t Index, class TypeList>
struct element final {
  static_assert(false_t<TypeList>::value,
                "element<I, T>: T is not a typelist or I is out of range");
};
template <class Head, class... Tail>
struct element<0, typelist<Head, Tail...>> final {
  using type = Head;
};
template <size_t Index, class Head, class... Tail>
struct element<Index, typelist<Head, Tail...>> final {
  using type = typename element<Index - 1, typelist<Tail...>>::type;
};
template <size_t Index, class TypeList>
using element_t = typename element<Index, TypeList>::type;

namespace detail {
template <class TypeList, size_t Offset, class IndexSequence>
struct take_elements final {};
template <class TypeList, size_t Offset, size_t... Is>
struct take_elements<TypeList, Offset, std::index_sequence<Is...>> final {
  using type = typelist<element_t<Offset + Is, TypeList>...>;
};
}  // namespace detail

// The first / all but the first `num` items.
template <class TypeList, size_t num>
struct take final {
  static_assert(num <= size<TypeList>::value, "take<T, num>: num is larger than the list");
  using type = typename detail::take_elements<TypeList, 0, std::make_index_sequence<num>>::type;
};
template <class TypeList, size_t num>
using take_t = typename take<TypeList, num>::type;

template <class TypeList, size_t num>
struct drop final {
  static_assert(num <= size<TypeList>::value, "drop<T, num>: num is larger than the list");
  using type =
      typename detail::take_elements<TypeList, num,
                                     std::make_index_sequence<size<TypeList>::value - num>>::type;
};
template <class TypeList, size_t num>
using drop_t = typename drop<TypeList, num>::type;

// Like drop, but an empty list stays empty instead of failing.
template <class TypeList, size_t num>
struct drop_if_nonempty final {
  static constexpr size_t count_ = num < size<TypeList>::value ? num : size<TypeList>::value;
  using type = typename detail::take_elements<
      TypeList, count_, std::make_index_sequence<size<TypeList>::value - count_>>::type;
};
template <class TypeList, size_t num>
using drop_if_nonempty_t = typename drop_if_nonempty<TypeList, num>::type;

}  // namespace typelist
}  // namespace torch::headeronly::guts

namespace c10::guts {
using torch::headeronly::guts::false_t;
namespace typelist {
using namespace torch::headeronly::guts::typelist;
}  // namespace typelist
}  // namespace c10::guts
