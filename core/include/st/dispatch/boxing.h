// Compile-time glue between typed C++ kernels and the boxed convention:
//  - function_traits: return and parameter types of functions, function
//    pointers, functors and lambdas;
//  - argFromIValue / toIValue / returnFromIValue: C++ value <-> IValue;
//  - schemaTypeOf / inferFunctionSchema: the schema a C++ signature implies,
//    checked against the declared schema at registration.
// See Note [Kernel calling conventions] in kernel_function.h.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <st/core/array_ref.h>
#include <st/dispatch/dispatch_key_set.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/ivalue.h>

namespace st {
namespace detail {

// ---------------------------------------------------------------------------
// function_traits
// ---------------------------------------------------------------------------

template <typename... Ts>
struct typelist {
  static constexpr size_t size = sizeof...(Ts);
};

template <typename F>
struct function_traits : function_traits<decltype(&F::operator())> {};
template <typename R, typename... A>
struct function_traits<R(A...)> {
  using return_type = R;
  using parameter_types = typelist<A...>;
  using func_type = R(A...);
};
template <typename R, typename... A>
struct function_traits<R (*)(A...)> : function_traits<R(A...)> {};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...)> : function_traits<R(A...)> {};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...) const> : function_traits<R(A...)> {};

// A kernel may take the DispatchKeySet it was called with as its first
// parameter (to redispatch); strip_keyset removes it from the signature.
template <typename Sig>
struct strip_keyset {
  using type = Sig;
  static constexpr bool takes_keyset = false;
};
template <typename R, typename... A>
struct strip_keyset<R(DispatchKeySet, A...)> {
  using type = R(A...);
  static constexpr bool takes_keyset = true;
};

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};
template <typename T>
struct is_array_ref : std::false_type {};
template <typename T>
struct is_array_ref<ArrayRef<T>> : std::true_type {};
template <typename T>
struct is_bool_array : std::false_type {};
template <size_t N>
struct is_bool_array<std::array<bool, N>> : std::true_type {};
template <typename T>
struct is_tuple : std::false_type {};
template <typename... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};

template <typename T>
inline constexpr bool always_false = false;

// ---------------------------------------------------------------------------
// IValue -> C++ (kernel arguments borrow from the stack where they can)
// ---------------------------------------------------------------------------

template <typename T>
struct ivalue_to;  // ivalue_to<decayed T>::get(IValue&) -> something T binds to

template <>
struct ivalue_to<IValue> {
  static IValue& get(IValue& v) { return v; }
};
template <>
struct ivalue_to<Tensor> {
  static Tensor& get(IValue& v) { return v.toTensor(); }
};
template <>
struct ivalue_to<int64_t> {
  static int64_t get(IValue& v) { return v.toInt(); }
};
template <>
struct ivalue_to<double> {
  static double get(IValue& v) { return v.toDouble(); }
};
template <>
struct ivalue_to<bool> {
  static bool get(IValue& v) { return v.toBool(); }
};
template <>
struct ivalue_to<std::string> {
  static const std::string& get(IValue& v) { return v.toStringRef(); }
};
template <>
struct ivalue_to<std::string_view> {
  static std::string_view get(IValue& v) { return v.toStringView(); }
};
template <>
struct ivalue_to<Scalar> {
  static Scalar get(IValue& v) { return v.toScalar(); }
};
template <>
struct ivalue_to<Device> {
  static Device get(IValue& v) { return v.toDevice(); }
};
template <>
struct ivalue_to<ScalarType> {
  static ScalarType get(IValue& v) { return v.toScalarType(); }
};
template <>
struct ivalue_to<Layout> {
  static Layout get(IValue& v) { return v.toLayout(); }
};
template <>
struct ivalue_to<MemoryFormat> {
  static MemoryFormat get(IValue& v) { return v.toMemoryFormat(); }
};
template <>
struct ivalue_to<Generator> {
  static const Generator& get(IValue& v) { return v.toGenerator(); }
};
template <>
struct ivalue_to<std::vector<int64_t>> {
  static const std::vector<int64_t>& get(IValue& v) { return v.toIntVector(); }
};
template <>
struct ivalue_to<ArrayRef<int64_t>> {
  static ArrayRef<int64_t> get(IValue& v) { return v.toIntList(); }
};
template <>
struct ivalue_to<std::vector<double>> {
  static const std::vector<double>& get(IValue& v) { return v.toDoubleVector(); }
};
template <>
struct ivalue_to<ArrayRef<double>> {
  static ArrayRef<double> get(IValue& v) { return ArrayRef<double>(v.toDoubleVector()); }
};
template <>
struct ivalue_to<std::vector<bool>> {
  static const std::vector<bool>& get(IValue& v) { return v.toBoolVector(); }
};
template <>
struct ivalue_to<std::vector<std::string>> {
  static const std::vector<std::string>& get(IValue& v) { return v.toStringVector(); }
};
template <>
struct ivalue_to<std::vector<Tensor>> {
  static const std::vector<Tensor>& get(IValue& v) { return v.toTensorVector(); }
};
template <>
struct ivalue_to<ArrayRef<Tensor>> {
  static ArrayRef<Tensor> get(IValue& v) { return ArrayRef<Tensor>(v.toTensorVector()); }
};
template <>
struct ivalue_to<std::vector<std::optional<Tensor>>> {
  static std::vector<std::optional<Tensor>> get(IValue& v) { return v.toOptionalTensorVector(); }
};
template <size_t N>
struct ivalue_to<std::array<bool, N>> {
  static std::array<bool, N> get(IValue& v) {
    const std::vector<bool>& b = v.toBoolVector();
    ST_CHECK(b.size() == N, "expected bool[", N, "] but got a list of ", b.size());
    std::array<bool, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = b[i];
    return out;
  }
};
template <typename T>
struct ivalue_to<std::optional<T>> {
  static std::optional<T> get(IValue& v) {
    if (v.isNone()) return std::nullopt;
    return std::optional<T>(ivalue_to<T>::get(v));
  }
};

// The value a kernel parameter of type T receives from stack slot v.
template <typename T>
decltype(auto) argFromIValue(IValue& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, int> || std::is_same_v<D, long long> ||
                (std::is_integral_v<D> && !std::is_same_v<D, bool> &&
                 !std::is_same_v<D, int64_t>)) {
    return static_cast<D>(v.toInt());
  } else if constexpr (std::is_same_v<D, float>) {
    return static_cast<float>(v.toDouble());
  } else {
    return ivalue_to<D>::get(v);
  }
}

// An owned C++ value from an IValue that is consumed (returns of a boxed
// kernel called through the typed API).
template <typename T>
T returnFromIValue(IValue&& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    return std::move(v).toTensor();
  } else if constexpr (std::is_same_v<D, std::vector<Tensor>>) {
    return std::move(v).toTensorVector();
  } else {
    return D(argFromIValue<D>(v));
  }
}

// ---------------------------------------------------------------------------
// C++ -> IValue
// ---------------------------------------------------------------------------

template <typename T>
IValue toIValue(T&& x) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, IValue>) {
    return std::forward<T>(x);
  } else if constexpr (is_optional<D>::value) {
    if (!x.has_value()) return IValue();
    return toIValue(*std::forward<T>(x));
  } else if constexpr (std::is_same_v<D, std::vector<std::optional<Tensor>>>) {
    std::vector<IValue> items;
    items.reserve(x.size());
    for (const auto& t : x) items.push_back(t.has_value() ? IValue(*t) : IValue());
    return IValue::makeList(std::move(items));
  } else if constexpr (std::is_same_v<D, ArrayRef<Tensor>>) {
    return IValue(std::vector<Tensor>(x.begin(), x.end()));
  } else if constexpr (std::is_same_v<D, ArrayRef<double>>) {
    return IValue(std::vector<double>(x.begin(), x.end()));
  } else if constexpr (std::is_same_v<D, float>) {
    return IValue(static_cast<double>(x));
  } else if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool>) {
    return IValue(static_cast<int64_t>(x));
  } else {
    return IValue(std::forward<T>(x));
  }
}

// Pushes a kernel's result: nothing for void, each element of a tuple, or
// one value.
template <typename R>
void pushReturn(R&& r, Stack* stack) {
  using D = std::decay_t<R>;
  if constexpr (is_tuple<D>::value) {
    std::apply(
        [&](auto&&... e) { (stack->push_back(toIValue(std::forward<decltype(e)>(e))), ...); },
        std::forward<R>(r));
  } else if constexpr (std::is_same_v<D, Tensor> || std::is_same_v<D, int64_t> ||
                       std::is_same_v<D, double> || std::is_same_v<D, bool>) {
    stack->emplace_back(std::forward<R>(r));  // constructs in place
  } else {
    stack->push_back(toIValue(std::forward<R>(r)));
  }
}

// Stores a single (non-tuple) kernel result into an existing stack slot.
template <typename R>
void assignReturn(IValue& slot, R&& r) {
  using D = std::decay_t<R>;
  if constexpr (std::is_same_v<D, Tensor>) {
    slot.setTensor(std::move(r));
  } else {
    slot = toIValue(std::forward<R>(r));
  }
}

template <typename R>
constexpr size_t numReturns() {
  if constexpr (std::is_void_v<R>) {
    return 0;
  } else if constexpr (is_tuple<std::decay_t<R>>::value) {
    return std::tuple_size_v<std::decay_t<R>>;
  } else {
    return 1;
  }
}

// ---------------------------------------------------------------------------
// Schema inference
// ---------------------------------------------------------------------------

template <typename T>
SchemaType schemaTypeOf() {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Tensor>) {
    return SchemaType(TypeKind::Tensor);
  } else if constexpr (std::is_same_v<D, bool>) {
    return SchemaType(TypeKind::Bool);
  } else if constexpr (std::is_integral_v<D>) {
    return SchemaType(TypeKind::Int);
  } else if constexpr (std::is_floating_point_v<D>) {
    return SchemaType(TypeKind::Float);
  } else if constexpr (std::is_same_v<D, std::string> || std::is_same_v<D, std::string_view>) {
    return SchemaType(TypeKind::Str);
  } else if constexpr (std::is_same_v<D, Scalar>) {
    return SchemaType(TypeKind::Scalar);
  } else if constexpr (std::is_same_v<D, Device>) {
    return SchemaType(TypeKind::Device);
  } else if constexpr (std::is_same_v<D, ScalarType>) {
    return SchemaType(TypeKind::ScalarType);
  } else if constexpr (std::is_same_v<D, Layout>) {
    return SchemaType(TypeKind::Layout);
  } else if constexpr (std::is_same_v<D, MemoryFormat>) {
    return SchemaType(TypeKind::MemoryFormat);
  } else if constexpr (std::is_same_v<D, Generator>) {
    return SchemaType(TypeKind::Generator);
  } else if constexpr (is_optional<D>::value) {
    return SchemaType::optional(schemaTypeOf<typename D::value_type>());
  } else if constexpr (is_vector<D>::value || is_array_ref<D>::value) {
    return SchemaType::list(schemaTypeOf<typename D::value_type>());
  } else if constexpr (is_bool_array<D>::value) {
    return SchemaType::list(SchemaType(TypeKind::Bool), std::tuple_size_v<D>);
  } else {
    static_assert(always_false<D>,
                  "this C++ type has no schema type; kernel parameters may be Tensor, "
                  "int64_t, double, bool, std::string(_view), Scalar, Device, ScalarType, "
                  "Layout, MemoryFormat, Generator, std::optional/std::vector/ArrayRef of those");
    return SchemaType();
  }
}

template <typename Tuple>
struct tuple_ptrs;
template <typename... T>
struct tuple_ptrs<std::tuple<T...>> {
  static std::tuple<T*...> make() { return std::tuple<T*...>{}; }
};

template <typename R>
std::vector<Argument> inferReturnList() {
  std::vector<Argument> out;
  if constexpr (std::is_void_v<R>) {
  } else if constexpr (is_tuple<std::decay_t<R>>::value) {
    std::apply(
        [&](auto*... p) {
          (out.push_back(Argument{"", schemaTypeOf<std::remove_pointer_t<decltype(p)>>(),
                                  std::nullopt, false}),
           ...);
        },
        tuple_ptrs<std::decay_t<R>>::make());
  } else {
    out.push_back(Argument{"", schemaTypeOf<R>(), std::nullopt, false});
  }
  return out;
}

template <typename Sig>
struct schema_inferrer;
template <typename R, typename... A>
struct schema_inferrer<R(A...)> {
  static FunctionSchema make() {
    std::vector<Argument> args;
    size_t i = 0;
    ((args.push_back(Argument{"_" + std::to_string(i++), schemaTypeOf<A>(), std::nullopt, false})),
     ...);
    return FunctionSchema(OperatorName("", ""), std::move(args), inferReturnList<R>());
  }
};

}  // namespace detail

// The schema a kernel signature implies (arguments named _0, _1, ...; a
// leading DispatchKeySet parameter is not part of it).
template <typename Sig>
FunctionSchema inferFunctionSchema() {
  return detail::schema_inferrer<typename detail::strip_keyset<Sig>::type>::make();
}

}  // namespace st
