// guts:: type traits used by the boxing adapters: comparability,
// hashability, function types, functors and stateless lambdas, template
// instantiations.
// Header-only: depends on nothing but the standard library.
#pragma once

#include <functional>
#include <type_traits>
#include <utility>

namespace torch::headeronly::guts {

template <class T, class Enable = void>
struct is_equality_comparable : std::false_type {};
template <class T>
struct is_equality_comparable<T, std::void_t<decltype(std::declval<T&>() == std::declval<T&>())>>
    : std::true_type {};
template <class T>
using is_equality_comparable_t = typename is_equality_comparable<T>::type;

template <class T, class Enable = void>
struct is_hashable : std::false_type {};
template <class T>
struct is_hashable<T, std::void_t<decltype(std::hash<T>()(std::declval<T&>()))>> : std::true_type {
};
template <class T>
using is_hashable_t = typename is_hashable<T>::type;

// True for plain function types such as int(double).
template <class T>
struct is_function_type : std::false_type {};
template <class Result, class... Args>
struct is_function_type<Result(Args...)> : std::true_type {};
template <class T>
using is_function_type_t = typename is_function_type<T>::type;

// True when T is Template<Args...> for some Args.
template <template <class...> class Template, class T>
struct is_instantiation_of : std::false_type {};
template <template <class...> class Template, class... Args>
struct is_instantiation_of<Template, Template<Args...>> : std::true_type {};
template <template <class...> class Template, class T>
using is_instantiation_of_t = typename is_instantiation_of<Template, T>::type;

namespace detail {
// The function type of a pointer to a (const) member call operator.
template <typename T>
struct strip_class {};
template <typename Class, typename Result, typename... Args>
struct strip_class<Result (Class::*)(Args...)> {
  using type = Result(Args...);
};
template <typename Class, typename Result, typename... Args>
struct strip_class<Result (Class::*)(Args...) const> {
  using type = Result(Args...);
};
template <typename T>
using strip_class_t = typename strip_class<T>::type;
}  // namespace detail

// True for class types with one (non-template) call operator.
template <class Functor, class Enable = void>
struct is_functor : std::false_type {};
template <class Functor>
struct is_functor<Functor, std::enable_if_t<is_function_type<
                               detail::strip_class_t<decltype(&Functor::operator())>>::value>>
    : std::true_type {};

namespace detail {
template <class Lambda, class CallOperator>
struct is_stateless_lambda__ : std::false_type {};
template <class Lambda, class C, class Result, class... Args>
struct is_stateless_lambda__<Lambda, Result (C::*)(Args...) const>
    : std::is_convertible<Lambda, Result (*)(Args...)> {};
template <class Lambda, class C, class Result, class... Args>
struct is_stateless_lambda__<Lambda, Result (C::*)(Args...)>
    : std::is_convertible<Lambda, Result (*)(Args...)> {};

template <class Lambda, class Enable = void>
struct is_stateless_lambda_ : std::false_type {};
template <class Lambda>
struct is_stateless_lambda_<Lambda, std::enable_if_t<is_functor<Lambda>::value>>
    : is_stateless_lambda__<Lambda, decltype(&Lambda::operator())> {};
}  // namespace detail

// True for a lambda without captures (it converts to a function pointer).
template <class T>
using is_stateless_lambda = detail::is_stateless_lambda_<std::decay_t<T>>;

// True when C<T>::value is a bool, i.e. C is a condition trait.
template <template <class> class C, class Enable = void>
struct is_type_condition : std::false_type {};
template <template <class> class C>
struct is_type_condition<
    C, std::enable_if_t<std::is_same_v<bool, std::remove_cv_t<decltype(C<int>::value)>>>>
    : std::true_type {};

template <class T>
struct is_fundamental : std::is_fundamental<T> {};

}  // namespace torch::headeronly::guts

namespace c10::guts {
using torch::headeronly::guts::is_equality_comparable;
using torch::headeronly::guts::is_equality_comparable_t;
using torch::headeronly::guts::is_function_type;
using torch::headeronly::guts::is_function_type_t;
using torch::headeronly::guts::is_functor;
using torch::headeronly::guts::is_fundamental;
using torch::headeronly::guts::is_hashable;
using torch::headeronly::guts::is_hashable_t;
using torch::headeronly::guts::is_instantiation_of;
using torch::headeronly::guts::is_instantiation_of_t;
using torch::headeronly::guts::is_stateless_lambda;
using torch::headeronly::guts::is_type_condition;
namespace detail {
using torch::headeronly::guts::detail::strip_class;
using torch::headeronly::guts::detail::strip_class_t;
}  // namespace detail
}  // namespace c10::guts
