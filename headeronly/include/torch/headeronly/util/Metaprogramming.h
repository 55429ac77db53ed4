// guts:: function traits and tuple helpers: what a boxing adapter needs to
// read a kernel's signature and to slice, take and map argument tuples.
// Header-only: depends on TypeList.h/TypeTraits.h and the standard library.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <torch/headeronly/util/TypeList.h>
#include <torch/headeronly/util/TypeTraits.h>

namespace torch::headeronly::guts {

// The pieces of a plain function type.
template <class Func>
struct function_traits {
  static_assert(false_t<Func>::value, "function_traits<F>: F must be a function type");
};
template <class Result, class... Args>
struct function_traits<Result(Args...)> {
  using func_type = Result(Args...);
  using return_type = Result;
  using parameter_types = typelist::typelist<Args...>;
  static constexpr auto number_of_parameters = sizeof...(Args);
};

// function_traits of a function, function pointer or functor (through its
// call operator).
template <typename Functor>
struct infer_function_traits {
  using type = function_traits<detail::strip_class_t<decltype(&Functor::operator())>>;
};
template <typename Result, typename... Args>
struct infer_function_traits<Result (*)(Args...)> {
  using type = function_traits<Result(Args...)>;
};
template <typename Result, typename... Args>
struct infer_function_traits<Result(Args...)> {
  using type = function_traits<Result(Args...)>;
};
template <typename T>
using infer_function_traits_t = typename infer_function_traits<T>::type;

// function_traits built from a return type and a typelist of parameters.
template <typename Result, typename ArgList>
struct make_function_traits {
  static_assert(false_t<ArgList>::value, "make_function_traits<R, L>: L must be a typelist");
};
template <typename Result, typename... Args>
struct make_function_traits<Result, typelist::typelist<Args...>> {
  using type = function_traits<Result(Args...)>;
};
template <typename Result, typename ArgList>
using make_function_traits_t = typename make_function_traits<Result, ArgList>::type;

// std::index_sequence<Start, Start + 1, ..., Start + N - 1>.
template <size_t Start, size_t N, size_t... Is>
struct make_offset_index_sequence_impl
    : make_offset_index_sequence_impl<Start, N - 1, Start + N - 1, Is...> {};
template <size_t Start, size_t... Is>
struct make_offset_index_sequence_impl<Start, 0, Is...> {
  using type = std::index_sequence<Is...>;
};
template <size_t Start, size_t N>
using make_offset_index_sequence = typename make_offset_index_sequence_impl<Start, N>::type;

// The tuple of the elements of t at the given indices.
template <class Tuple, size_t... Is>
constexpr auto tuple_elements(Tuple t, std::index_sequence<Is...> /*unused*/) {
  return std::tuple<std::tuple_element_t<Is, Tuple>...>(std::get<Is>(t)...);
}

// The first N elements (N >= 0) or the last -N elements (N < 0).
template <class Tuple, int N, class Enable = void>
struct TupleTake {};
template <class Tuple, int N>
struct TupleTake<Tuple, N, std::enable_if_t<(N >= 0)>> {
  static auto call(Tuple t) {
    static_assert(static_cast<size_t>(N) <= std::tuple_size_v<Tuple>,
                  "tuple_take: N is larger than the tuple");
    return tuple_elements(t, std::make_index_sequence<N>{});
  }
};
template <class Tuple, int N>
struct TupleTake<Tuple, N, std::enable_if_t<(N < 0)>> {
  static auto call(Tuple t) {
    constexpr size_t size = std::tuple_size_v<Tuple>;
    static_assert(static_cast<size_t>(-N) <= size, "tuple_take: -N is larger than the tuple");
    return tuple_elements(
        t, make_offset_index_sequence<size - static_cast<size_t>(-N), static_cast<size_t>(-N)>{});
  }
};
template <class Tuple, int N>
auto tuple_take(Tuple t) {
  return TupleTake<Tuple, N>::call(t);
}

// Elements [Start, Start + N).
template <class Tuple, size_t Start, size_t N>
constexpr auto tuple_slice(Tuple t) {
  static_assert(Start + N <= std::tuple_size_v<Tuple>,
                "tuple_slice: Start + N is larger than the tuple");
  return tuple_elements(t, make_offset_index_sequence<Start, N>{});
}

namespace detail {
template <class Mapper, class... Args, size_t... Is>
auto tuple_map(std::tuple<Args...>&& tuple, const Mapper& mapper,
               std::index_sequence<Is...> /*unused*/) {
  // Braced initialisation evaluates the mapper left to right.
  return std::tuple<decltype(mapper(std::forward<Args>(std::get<Is>(tuple))))...>{
      mapper(std::forward<Args>(std::get<Is>(tuple)))...};
}
}  // namespace detail

// A tuple of mapper(element) for each element, in order.
template <class Mapper, class... Args>
auto tuple_map(std::tuple<Args...>&& tuple, const Mapper& mapper) {
  return detail::tuple_map(std::move(tuple), mapper, std::index_sequence_for<Args...>());
}

}  // namespace torch::headeronly::guts

namespace c10::guts {
using torch::headeronly::guts::function_traits;
using torch::headeronly::guts::infer_function_traits;
using torch::headeronly::guts::infer_function_traits_t;
using torch::headeronly::guts::make_function_traits;
using torch::headeronly::guts::make_function_traits_t;
using torch::headeronly::guts::make_offset_index_sequence;
using torch::headeronly::guts::make_offset_index_sequence_impl;
using torch::headeronly::guts::tuple_elements;
using torch::headeronly::guts::tuple_map;
using torch::headeronly::guts::tuple_slice;
using torch::headeronly::guts::tuple_take;
using torch::headeronly::guts::TupleTake;
}  // namespace c10::guts
