// TORCH_BOX(&fn): the boxed kernel of a typed C++ function, i.e. a
// void(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) that
// takes fn's arguments from stack[0..num_args) (stealing them), calls fn,
// and leaves its results in stack[0..num_outputs) (new references).
//
// Parameters may be taken by value, `const T&` or `T&`, for T one of
// Tensor, int64_t, double, bool, ScalarType, Layout, MemoryFormat, Device,
// Scalar, std::string, std::string_view, std::optional<T>, std::vector<T>,
// HeaderOnlyArrayRef<T> (and other trivially copyable values of <= 8
// bytes). Returns: one value, std::tuple<...> (one stack slot each), or
// void. HeaderOnlyArrayRef and string_view parameters view storage that
// lives for the duration of the call.
//
// Beyond PyTorch: TORCH_BOX also yields fn's signature in schema syntax
// ("(Tensor _0, float? _1) -> Tensor"), which StableLibrary::impl hands to
// the core so a kernel that disagrees with its operator's schema is
// refused at registration, with every differing position listed. A
// parameter type without a schema spelling (e.g. int32_t through the
// catch-all) disables the check for that kernel.
#pragma once

#include <torch/csrc/stable/device_struct.h>
#include <torch/csrc/stable/scalar.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor_struct.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

// What a TORCH_BOX'd kernel is: the boxed function and, for the core's
// check, its signature. Converts to the bare function pointer, so code
// that stores TORCH_BOX(&f) as void(*)(StableIValue*, uint64_t, uint64_t)
// (as with PyTorch) still compiles.
struct BoxedKernel {
  using Fn = void (*)(StableIValue*, uint64_t, uint64_t);
  Fn fn;
  const char* (*signature_fn)();

  // nullptr when some parameter or return type has no schema spelling.
  const char* signature() const { return signature_fn(); }
  constexpr operator Fn() const noexcept { return fn; }
};

// ---- the storage type a parameter is converted to ------------------------

template <typename T>
struct unboxed_storage {
  using type = T;
};
template <typename T>
struct unboxed_storage<torch::headeronly::HeaderOnlyArrayRef<T>> {
  using type = std::vector<T>;
};
template <>
struct unboxed_storage<std::string_view> {
  using type = std::string;
};
template <typename T>
struct unboxed_storage<std::optional<T>> {
  using type = std::optional<typename unboxed_storage<T>::type>;
};
template <typename T>
using unboxed_storage_t =
    typename unboxed_storage<std::remove_cv_t<std::remove_reference_t<T>>>::type;

// A stored optional<vector<T>> does not convert to the parameter type
// optional<HeaderOnlyArrayRef<T>> by itself: views are made here.
template <typename Param, typename Stored>
decltype(auto) as_param(Stored& stored) {
  using P = std::remove_cv_t<std::remove_reference_t<Param>>;
  if constexpr (std::is_same_v<P, Stored>) {
    return (stored);
  } else if constexpr (std::is_same_v<P, std::optional<std::string_view>>) {
    return stored.has_value() ? P(std::string_view(*stored)) : P(std::nullopt);
  } else if constexpr (std::is_constructible_v<P, Stored&>) {
    return P(stored);
  } else {
    // optional<HeaderOnlyArrayRef<T>> from optional<vector<T>>
    return stored.has_value() ? P(typename P::value_type(*stored)) : P(std::nullopt);
  }
}

// ---- schema spellings (for the signature check) --------------------------

template <typename T, typename = void>
struct schema_spelling {
  static bool append(std::string&) { return false; }  // unknown: no check
};
#define STABLE_SCHEMA_SPELLING_(cpp_type, text) \
  template <>                                   \
  struct schema_spelling<cpp_type> {            \
    static bool append(std::string& s) {        \
      s += text;                                \
      return true;                              \
    }                                           \
  };
STABLE_SCHEMA_SPELLING_(Tensor, "Tensor")
STABLE_SCHEMA_SPELLING_(int64_t, "int")
STABLE_SCHEMA_SPELLING_(double, "float")
STABLE_SCHEMA_SPELLING_(bool, "bool")
STABLE_SCHEMA_SPELLING_(std::string, "str")
STABLE_SCHEMA_SPELLING_(torch::headeronly::ScalarType, "ScalarType")
STABLE_SCHEMA_SPELLING_(torch::headeronly::Layout, "Layout")
STABLE_SCHEMA_SPELLING_(torch::headeronly::MemoryFormat, "MemoryFormat")
STABLE_SCHEMA_SPELLING_(Device, "Device")
STABLE_SCHEMA_SPELLING_(Scalar, "Scalar")
#undef STABLE_SCHEMA_SPELLING_
template <typename T>
struct schema_spelling<std::optional<T>> {
  static bool append(std::string& s) {
    if (!schema_spelling<T>::append(s)) return false;
    s += "?";
    return true;
  }
};
template <typename T>
struct schema_spelling<std::vector<T>> {
  static bool append(std::string& s) {
    if (!schema_spelling<T>::append(s)) return false;
    s += "[]";
    return true;
  }
};

template <typename R>
struct return_spelling {
  static bool append(std::string& s) {
    return schema_spelling<std::remove_cv_t<std::remove_reference_t<R>>>::append(s);
  }
};
template <>
struct return_spelling<void> {
  static bool append(std::string& s) {
    s += "()";
    return true;
  }
};
template <typename... Rs>
struct return_spelling<std::tuple<Rs...>> {
  static bool append(std::string& s) {
    s += "(";
    bool ok = true;
    size_t i = 0;
    ((ok = ok && (i++ == 0 || (s += ", ", true)) &&
           schema_spelling<std::remove_cv_t<std::remove_reference_t<Rs>>>::append(s)),
     ...);
    s += ")";
    return ok;
  }
};

// "(Tensor _0, float? _1) -> Tensor", or nullptr when a type is unknown.
template <typename R, typename... Params>
const char* signature_of() {
  static const std::string text = [] {
    std::string s = "(";
    bool ok = true;
    size_t i = 0;
    ((ok = ok && (i == 0 || (s += ", ", true)) &&
           schema_spelling<unboxed_storage_t<Params>>::append(s) &&
           (s += " _" + std::to_string(i++), true)),
     ...);
    s += ") -> ";
    ok = ok && return_spelling<R>::append(s);
    return ok ? s : std::string();
  }();
  return text.empty() ? nullptr : text.c_str();
}

// ---- the boxer -------------------------------------------------------------

template <typename R>
struct result_count {
  static constexpr uint64_t value = 1;
};
template <>
struct result_count<void> {
  static constexpr uint64_t value = 0;
};
template <typename... Rs>
struct result_count<std::tuple<Rs...>> {
  static constexpr uint64_t value = sizeof...(Rs);
};

template <typename T>
struct is_tuple : std::false_type {};
template <typename... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};

template <typename... Rs, size_t... I>
void box_tuple(StableIValue* stack, const std::tuple<Rs...>& result, std::index_sequence<I...>) {
  ((stack[I] = from(std::get<I>(result))), ...);
}

template <typename FnType, FnType* fn>
struct boxer;

template <typename R, typename... Params, R (*fn)(Params...)>
struct boxer<R(Params...), fn> {
  static constexpr uint64_t kNumArgs = sizeof...(Params);
  static constexpr uint64_t kNumReturns = result_count<std::decay_t<R>>::value;

  template <size_t... I>
  static void call(StableIValue* stack, std::index_sequence<I...>) {
    // Braced initialization converts left to right; each conversion steals
    // its slot.
    std::tuple<unboxed_storage_t<Params>...> args{to<unboxed_storage_t<Params>>(stack[I])...};
    (void)args;
    using V = std::decay_t<R>;
    if constexpr (std::is_void_v<R>) {
      fn(as_param<Params>(std::get<I>(args))...);
    } else if constexpr (kNumReturns != 1 || is_tuple<V>::value) {
      const V result = fn(as_param<Params>(std::get<I>(args))...);
      box_tuple(stack, result, std::make_index_sequence<std::tuple_size_v<V>>{});
    } else {
      stack[0] = from(fn(as_param<Params>(std::get<I>(args))...));
    }
  }

  static void boxed_fn(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
    STD_TORCH_CHECK(num_args == kNumArgs, "Registered schema has ", num_args,
                    " args, but the kernel to box has ", kNumArgs);
    STD_TORCH_CHECK(num_outputs == kNumReturns, "Registered schema has ", num_outputs,
                    " outputs, but the kernel to box has ", kNumReturns);
    call(stack, std::index_sequence_for<Params...>{});
  }

  static const char* signature() { return signature_of<std::decay_t<R>, Params...>(); }
};

// noexcept functions box like the others.
template <typename R, typename... Params, R (*fn)(Params...) noexcept>
struct boxer<R(Params...) noexcept, fn> : boxer<R(Params...), static_cast<R (*)(Params...)>(fn)> {};

template <typename FnType, FnType* fn>
constexpr BoxedKernel make_boxed_kernel() {
  return BoxedKernel{&boxer<FnType, fn>::boxed_fn, &boxer<FnType, fn>::signature};
}

HIDDEN_NAMESPACE_END(torch, stable, detail)

// TORCH_BOX(&fn) or TORCH_BOX(fn): fn must be a function (not a lambda or
// a functor) known at compile time.
#define TORCH_BOX(func)                                                                            \
  (::torch::stable::detail::make_boxed_kernel<std::remove_pointer_t<std::decay_t<decltype(func)>>, \
                                              (func)>())
