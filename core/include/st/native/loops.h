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

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include <st/core/error.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/reduction.h>
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

// Item i of an input array. A bool is read as its byte compared with 0:
// g++ does not vectorize loops that load bool (a select on a bool mask,
// where or masked_fill, stays a branch per element), but does the byte
// compare. The bytes of a bool tensor are 0 or 1, so the value is the same.
template <typename T>
inline T load_item(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return reinterpret_cast<const unsigned char*>(p)[i] != 0;
  } else {
    return p[i];
  }
}

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
    return load_item(reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1]), i);
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

// Note [Strided operands by blocks]
// A row with a strided operand (a sliced or transposed input, a strided
// out=) runs in blocks of kStridedBlock elements: each strided input is
// gathered into a contiguous stack buffer (stride 2 of 4- and 8-byte
// items by a vector loop, gather_strided), the function runs over the
// block as the contiguous loop does (which the compiler vectorizes, and
// which keeps a branchy function such as relu's free of mispredicted
// branches), and a strided output is written back from its own buffer
// (scatter_strided: only the view's items, as the gaps are not this
// view's to write). A strided output written back item by item takes
// blocks of kStridedOutBlock: their item stores fit in the core's store
// queue (64 entries on current x86 cores), so the loads of the next
// block's gather start while they drain (in-place relu_ on every other
// float, the loop in isolation on a Zen 3: 0.45 ms against 0.59 ms for
// blocks of 256, whose stores the next gather waits for; on a Zen 4,
// stride 3 read either way round depending on where the data lay).
// Stride 2 of 4- and 8-byte items with AVX-512 is written back by masked
// vector stores, a few per block, and takes whole blocks: in-place mul_
// of two such views of 1M floats on that Zen 4, 0.68 ms with blocks of
// 64 and 0.45 with 256; relu_ 0.45 and 0.25.
// row_block gives a row's block.
// Contiguous operands are used in place. All inputs of a block are read
// before any of its outputs is written, so an in-place op's self (the
// same view as the output) stays correct.
constexpr int64_t kStridedBlock = 256;
constexpr int64_t kStridedOutBlock = 64;
constexpr int64_t kStridedBlockMin = 16;  // below this the stepping loop is as fast

// Items per block of a row whose output has byte stride out_stride.
inline int64_t row_block(int64_t out_stride, size_t out_itemsize) {
  const auto size = static_cast<int64_t>(out_itemsize);
  return out_stride == size ? kStridedBlock : strided_out_block(out_stride / size, out_itemsize);
}

// Storage for one operand's block, left uninitialized.
template <typename T>
struct BlockBuffer {
  BlockBuffer() {}  // NOLINT: user-provided so a value-initializing tuple leaves it uninitialized
  T* get() { return reinterpret_cast<T*>(bytes); }
  alignas(64) unsigned char bytes[kStridedBlock * sizeof(T)];
};

// Elements [i0, i0 + m) of an operand as a contiguous array: in place when
// it is contiguous, else gathered into buf. A byte stride is a whole number
// of elements (the iterator checks the element sizes).
template <typename T>
inline const T* block_input(const char* p, int64_t stride, int64_t i0, int64_t m, T* buf) {
  constexpr int64_t kItem = static_cast<int64_t>(sizeof(T));
  if (stride == kItem) return reinterpret_cast<const T*>(p) + i0;
  gather_strided(buf, p + i0 * stride, m, stride / kItem, sizeof(T));
  return buf;
}

template <typename Traits, typename F, size_t... I>
inline void blocked_loop(char** data, const int64_t* strides, int64_t n, const F& f,
                         std::index_sequence<I...>) {
  using R = typename Traits::ret;
  constexpr int64_t kOut = static_cast<int64_t>(sizeof(R));
  std::tuple<BlockBuffer<arg_t<Traits, I>>...> in_bufs;
  BlockBuffer<R> out_buf;
  const bool out_contiguous = strides[0] == kOut;
  const int64_t block = row_block(strides[0], sizeof(R));
  for (int64_t i0 = 0; i0 < n; i0 += block) {
    const int64_t m = std::min(block, n - i0);
    std::tuple<const arg_t<Traits, I>*...> in{block_input<arg_t<Traits, I>>(
        data[I + 1], strides[I + 1], i0, m, std::get<I>(in_bufs).get())...};
    R* out = out_contiguous ? reinterpret_cast<R*>(data[0]) + i0 : out_buf.get();
    for (int64_t k = 0; k < m; ++k) out[k] = f(load_item(std::get<I>(in), k)...);
    if (!out_contiguous)
      scatter_strided(data[0] + i0 * strides[0], out, m, strides[0] / kOut, sizeof(R));
  }
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
      out[i] = f(load_item(reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1]), i)...);
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
  if (n >= kStridedBlockMin) {
    blocked_loop<Traits>(data, strides, n, f, seq);
    return;
  }
  char* out = data[0];
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<R*>(out + i * strides[0]) =
        f(*reinterpret_cast<const arg_t<Traits, I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

// Calls row(ptrs) for each of the `rows` rows of a 2-d loop (loop2d_t) over
// N operands, ptrs[i] = data[i] + j * outer_strides[i] for row j.
template <size_t N, typename Row>
inline void for_each_row(char** data, const int64_t* outer_strides, int64_t rows, const Row& row) {
  if (rows == 1) {
    row(data);
    return;
  }
  char* ptrs[N];
  for (size_t k = 0; k < N; ++k) ptrs[k] = data[k];
  for (int64_t j = 0; j < rows; ++j) {
    row(ptrs);
    for (size_t k = 0; k < N; ++k) ptrs[k] += outer_strides[k];
  }
}

}  // namespace detail

// c ? a : b without a branch, for a select on a bool tensor (where,
// masked_fill): g++ makes the plain conditional of integer items a branch
// per element, mispredicted half the time on a random condition (where on
// 1M int64: 7 ms, against 1 ms for float, whose select it vectorizes).
// Items of 1, 2, 4 or 8 bytes are chosen by their bits under a mask of all
// ones or all zeros, which the compiler vectorizes for every such type;
// wider items (complex<double>) take the conditional.
template <typename T>
inline T select_item(bool c, T a, T b) {
  using U = detail::unsigned_of_size_t<sizeof(T)>;
  if constexpr (std::is_void_v<U> || !std::is_trivially_copyable_v<T>) {
    return c ? a : b;
  } else {
    U ua, ub;
    std::memcpy(&ua, &a, sizeof(T));
    std::memcpy(&ub, &b, sizeof(T));
    const U take_a = static_cast<U>(U{0} - static_cast<U>(c));
    const U r = static_cast<U>((ua & take_a) | (ub & static_cast<U>(~take_a)));
    T out = a;
    std::memcpy(static_cast<void*>(&out), &r, sizeof(T));
    return out;
  }
}

namespace detail {

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
  iter.for_each_2d(
      [&f](char** data, const int64_t* strides, const int64_t* outer_strides, int64_t n,
           int64_t rows) {
        // The loops call a local copy of f: the output's stores cannot
        // alias a local, so the values f captured stay in registers, where
        // through f they are reloaded after every store (a select of a
        // captured value, masked_fill's, became a branch per element,
        // mispredicted half the time on a random mask).
        const F fn = f;
        detail::for_each_row<Traits::arity + 1>(data, outer_strides, rows, [&](char** row) {
          detail::basic_loop<Traits>(row, strides, n, fn,
                                     std::make_index_sequence<Traits::arity>());
        });
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
