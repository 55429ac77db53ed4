// Typed loops over a TensorIterator.
//
//   cpu_kernel(iter, [](float a, float b) -> float { return a + b; });
//
// The lambda's parameter types are the inputs' C++ types and its return
// type the output's; the iterator must have been built so that the
// operands have exactly these dtypes (the element sizes are checked). A
// contiguous chunk runs as a plain indexed loop the compiler vectorizes;
// other chunks step by byte strides. cpu_kernel calls iter.finish().
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include <st/core/error.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

namespace st::native {

namespace detail {

template <typename F>
struct lambda_traits : lambda_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct lambda_traits<R (C::*)(A...) const> {
  using ret = R;
  using args = std::tuple<std::decay_t<A>...>;
  static constexpr size_t arity = sizeof...(A);
};
template <typename C, typename R, typename... A>
struct lambda_traits<R (C::*)(A...)> : lambda_traits<R (C::*)(A...) const> {};

template <typename Traits, size_t I>
using arg_t = std::tuple_element_t<I, typename Traits::args>;

// Input I of a contiguous loop at element i, or the value `scalar` held
// for the whole loop when I is the broadcast input S.
template <typename Traits, size_t I, size_t S>
inline arg_t<Traits, I> loop_arg(char** data, int64_t i, const arg_t<Traits, S>& scalar) {
  if constexpr (I == S) {
    (void)data;
    (void)i;
    return scalar;
  } else {
    (void)scalar;
    return reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1])[i];
  }
}

// The contiguous loop with input S broadcast (stride 0, e.g. a Scalar
// argument or a broadcast row): its value is read once, so the loop stays
// one the compiler vectorizes. Returns false when the strides are not
// that case.
template <typename Traits, size_t S, typename F, size_t... I>
inline bool scalar_input_loop(char** data, const int64_t* strides, int64_t n, const F& f,
                              std::index_sequence<I...>) {
  using R = typename Traits::ret;
  const bool fits =
      strides[0] == static_cast<int64_t>(sizeof(R)) && strides[S + 1] == 0 &&
      ((I == S || strides[I + 1] == static_cast<int64_t>(sizeof(arg_t<Traits, I>))) && ...);
  if (!fits) return false;
  const arg_t<Traits, S> scalar = *reinterpret_cast<const arg_t<Traits, S>*>(data[S + 1]);
  R* out = reinterpret_cast<R*>(data[0]);
  for (int64_t i = 0; i < n; ++i) out[i] = f(loop_arg<Traits, I, S>(data, i, scalar)...);
  return true;
}

template <typename Traits, typename F, size_t... I>
inline void basic_loop(char** data, const int64_t* strides, int64_t n, const F& f,
                       std::index_sequence<I...> seq) {
  using R = typename Traits::ret;
  const bool contiguous =
      strides[0] == static_cast<int64_t>(sizeof(R)) &&
      ((strides[I + 1] == static_cast<int64_t>(sizeof(arg_t<Traits, I>))) && ...);
  if (contiguous) {
    R* out = reinterpret_cast<R*>(data[0]);
    for (int64_t i = 0; i < n; ++i) {
      out[i] = f(reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1])[i]...);
    }
    return;
  }
  if constexpr (sizeof...(I) == 2) {
    // Binary ops with one broadcast operand (a Scalar, a broadcast row).
    if (scalar_input_loop<Traits, 1>(data, strides, n, f, seq) ||
        scalar_input_loop<Traits, 0>(data, strides, n, f, seq)) {
      return;
    }
  }
  char* out = data[0];
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<R*>(out + i * strides[0]) =
        f(*reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

[[noreturn]] ST_API void throw_kernel_type_mismatch(const char* op, int operand, size_t expected,
                                                    size_t got);

}  // namespace detail

template <typename F>
void cpu_kernel(TensorIterator& iter, const F& f, int64_t grain_size = 32768) {
  using Traits = detail::lambda_traits<F>;
  using R = typename Traits::ret;
  ST_CHECK(iter.ninputs() == static_cast<int>(Traits::arity), iter.name(), ": kernel takes ",
           Traits::arity, " inputs but the iterator has ", iter.ninputs());
  if (torch::headeronly::elementSize(iter.dtype(0)) != sizeof(R)) {
    detail::throw_kernel_type_mismatch(iter.name(), 0, sizeof(R),
                                       torch::headeronly::elementSize(iter.dtype(0)));
  }
  iter.for_each(
      [&f](char** data, const int64_t* strides, int64_t n) {
        detail::basic_loop<Traits>(data, strides, n, f, std::make_index_sequence<Traits::arity>());
      },
      grain_size);
  iter.finish();
}

// Calls f(std::integral_constant<E, v>{}) with the v among Values that
// equals `e` (the last one when none does), so that a kernel family's
// operator selector (eq/lt/..., and/or/xor, a rounding mode) reaches the
// element lambda as a compile-time constant: a switch on a run-time value
// inside the loop costs a branch per element and keeps the compiler from
// vectorizing it.
//
//   dispatch_constant<Cmp::Eq, Cmp::Lt>(c, [&](auto op) {
//     cpu_kernel(iter, [](float x, float y) -> bool { return compare<op()>(x, y); });
//   });
template <auto First, auto... Rest, typename E, typename F>
decltype(auto) dispatch_constant(E e, const F& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(std::integral_constant<decltype(First), First>{});
  } else {
    if (e == First) return f(std::integral_constant<decltype(First), First>{});
    return dispatch_constant<Rest...>(e, f);
  }
}

// Reads a Scalar as T with PyTorch's unchecked conversion rules.
template <typename T>
T scalar_as(const Scalar& s) {
  switch (s.tag()) {
    case Scalar::Tag::Bool:
      return convert<T>(s.raw_int() != 0);
    case Scalar::Tag::Int:
      return convert<T>(s.raw_int());
    case Scalar::Tag::Double:
      return convert<T>(s.raw_double());
    case Scalar::Tag::Complex:
      return convert<T>(s.toComplexDouble());
  }
  return T();
}

// Reads a Scalar as T, throwing "value cannot be converted to type uint8_t
// without overflow" when it does not fit (fill_, full).
template <typename T>
T checked_scalar_as(const Scalar& s) {
  if constexpr (std::is_arithmetic_v<T>) {
    return s.to<T>();
  } else if constexpr (is_complex_v<T>) {
    using U = typename opmath_t<T>::value_type;
    return from_opmath<T>(s.to<std::complex<U>>());
  } else {
    return T(s.to<float>());
  }
}

}  // namespace st::native
