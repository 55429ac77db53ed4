// Internal: the elementwise iterator loops over the per-ISA array
// functions (the vec_kernels.h and vec_math.h tables), shared by the
// binary operators, the comparisons and the logical and bitwise ops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <st/core/result_type.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/reduction.h>
#include <st/native/tensor_iterator.h>

#include "vec_kernels.h"
#include "vec_math.h"

namespace st::native::cpu {

namespace vec_loops_detail {

// Writes a block computed into o (m items) to a strided output row.
template <typename O>
inline void write_back(char* dst, int64_t stride, const O* o, int64_t m) {
  detail::scatter_strided(dst, o, m, stride / static_cast<int64_t>(sizeof(O)), sizeof(O));
}

// n copies of *value at out, by the ISA's fill (vector stores as wide as
// the ISA's). std::fill here is built for the baseline ISA and stores 16
// bytes at a time: in [1024, 1] * [1, 1024] floats (one 256-float fill
// per row) its store loop held a quarter of the time in the profile. By
// the ISA's fill: 69 -> 61 us, maximum 93 -> 86 (one process,
// interleaved builds).
template <typename T>
inline void repeat(T* out, const T* value, int64_t n) {
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
      "fill_bits takes 2^k bytes, k < 5");
  constexpr int k = sizeof(T) == 1   ? 0
                    : sizeof(T) == 2 ? 1
                    : sizeof(T) == 4 ? 2
                    : sizeof(T) == 8 ? 3
                                     : 4;
  vec_kernels().fill_bits[k](out, value, n);
}

// Short contiguous rows against a broadcast row (b's one row repeated
// down a's rows, or a's down b's, as a [k, n] tensor with an [n] one
// gives): when the output's rows and the other input's follow each other
// in memory, fn takes as many rows per call as fill a block, the repeated
// row laid out that many times in a stack buffer. A call of a function
// such as pow sets up its constants and its partial last vector once per
// call, which rows of 32 floats paid 32 times per 1K elements. False (and
// nothing done) for other layouts, and for rows of which a block holds
// fewer than two.
template <typename O, typename A, typename B, typename Fn>
bool broadcast_rows(Fn fn, char** data, const int64_t* strides, const int64_t* outer_strides,
                    int64_t n, int64_t rows) {
  constexpr int64_t kO = sizeof(O), kA = sizeof(A), kB = sizeof(B);
  if (rows < 2 || 2 * n > detail::kStridedBlock || strides[0] != kO || strides[1] != kA ||
      strides[2] != kB || outer_strides[0] != n * kO) {
    return false;
  }
  const bool a_rep = outer_strides[1] == 0 && outer_strides[2] == n * kB;
  const bool b_rep = outer_strides[2] == 0 && outer_strides[1] == n * kA;
  if (!a_rep && !b_rep) return false;
  const int64_t per = std::min(detail::kStridedBlock / n, rows);  // rows per call
  detail::BlockBuffer<A> ra;
  detail::BlockBuffer<B> rb;
  for (int64_t r = 0; r < per; ++r) {
    if (a_rep) std::memcpy(ra.get() + r * n, data[1], static_cast<size_t>(n * kA));
    if (b_rep) std::memcpy(rb.get() + r * n, data[2], static_cast<size_t>(n * kB));
  }
  O* out = reinterpret_cast<O*>(data[0]);
  const A* pa = reinterpret_cast<const A*>(data[1]);
  const B* pb = reinterpret_cast<const B*>(data[2]);
  for (int64_t r0 = 0; r0 < rows; r0 += per) {
    const int64_t m = std::min(per, rows - r0) * n;
    fn(out + r0 * n, a_rep ? ra.get() : pa + r0 * n, b_rep ? rb.get() : pb + r0 * n, m);
  }
  return true;
}

}  // namespace vec_loops_detail

// An iterator with output O and inputs A, B through fn(O* out, const A* a,
// const B* b, int64_t n), which may write out over a or b. The iterator
// hands over whole rows (TensorIterator::for_each_2d). Contiguous rows run
// fn directly, a call per row from the 2-d loop itself: through the
// per-row lambda below, whose frame holds the other layouts' stack
// buffers, lt_ in place over [4096, 256] floats with a broadcast row took
// 82-97 us against 64-76 (bench_ops BM_BroadcastRow1M, Zen 4). Rows with
// one stride-0 operand (a Scalar argument, a column broadcast along rows)
// run `rep` when the kernel has that form (fn's bits with the value held
// in a register, a call per row: vec_math's binary_scalar_f32), which
// returns false to decline a row; else fn directly too, the value
// repeated in a stack buffer once per row.
// Other layouts (strided, broadcast rows) run fn by blocks
// (Note [Strided operands by blocks] in loops.h), except rows too short to
// gather, which run the scalar kernel `scalar` (A, B) -> O. fn must match
// `scalar` bit for bit (tests/core/native/cpu/test_vec_kernels.cpp,
// test_vec_math.cpp), so an element's result never depends on its layout.
template <typename O, typename A, typename B, typename Fn, typename F,
          typename Rep = std::nullptr_t>
void vec_binary_loop(TensorIterator& iter, Fn fn, const F& scalar, Rep rep = nullptr) {
  iter.for_each_2d([fn, &scalar, rep](char** data2d, const int64_t* strides,
                                      const int64_t* outer_strides, int64_t n, int64_t rows) {
    constexpr int64_t kO = sizeof(O), kA = sizeof(A), kB = sizeof(B);
    if (vec_loops_detail::broadcast_rows<O, A, B>(fn, data2d, strides, outer_strides, n, rows)) {
      return;
    }
    if (strides[0] == kO && strides[1] == kA && strides[2] == kB) {
      // Contiguous rows (a [k, n] tensor with an [n] one broadcast down it,
      // or a 2-d slice): fn straight from this loop.
      detail::for_each_row<3>(data2d, outer_strides, rows, [&](char** d) {
        fn(reinterpret_cast<O*>(d[0]), reinterpret_cast<const A*>(d[1]),
           reinterpret_cast<const B*>(d[2]), n);
      });
      return;
    }
    detail::for_each_row<3>(data2d, outer_strides, rows, [&](char** data) {
      using detail::BlockBuffer;
      using detail::kStridedBlock;
      O* out = reinterpret_cast<O*>(data[0]);
      const A* pa = reinterpret_cast<const A*>(data[1]);
      const B* pb = reinterpret_cast<const B*>(data[2]);
      const bool out_contiguous = strides[0] == kO;
      const bool a_rep = strides[1] == 0 && strides[2] == kB;
      const bool b_rep = strides[1] == kA && strides[2] == 0;
      if (out_contiguous && n > 1 && (a_rep || b_rep)) {
        if constexpr (!std::is_same_v<Rep, std::nullptr_t>) {
          // maximum of [1024, 1] with [1, 1024] floats: 71-79 -> 49-51 us
          // against the buffer (one process, interleaved builds, Zen 4).
          if (rep(out, pa, pb, n, a_rep)) return;
        }
        const int64_t fill = std::min(kStridedBlock, n);
        BlockBuffer<A> ra;
        BlockBuffer<B> rb;
        if (a_rep) vec_loops_detail::repeat(ra.get(), pa, fill);
        if (b_rep) vec_loops_detail::repeat(rb.get(), pb, fill);
        for (int64_t i0 = 0; i0 < n; i0 += kStridedBlock) {
          fn(out + i0, a_rep ? ra.get() : pa + i0, b_rep ? rb.get() : pb + i0,
             std::min(kStridedBlock, n - i0));
        }
        return;
      }
      if (n < detail::kStridedBlockMin) {
        detail::basic_loop<detail::lambda_traits<F>>(data, strides, n, scalar,
                                                     std::make_index_sequence<2>());
        return;
      }
      BlockBuffer<A> ba;
      BlockBuffer<B> bb;
      BlockBuffer<O> bo;
      const int64_t block = detail::row_block(strides[0], sizeof(O));
      for (int64_t i0 = 0; i0 < n; i0 += block) {
        const int64_t m = std::min(block, n - i0);
        const A* x = detail::block_input<A>(data[1], strides[1], i0, m, ba.get());
        const B* y = detail::block_input<B>(data[2], strides[2], i0, m, bb.get());
        O* o = out_contiguous ? out + i0 : bo.get();
        fn(o, x, y, m);
        if (!out_contiguous)
          vec_loops_detail::write_back(data[0] + i0 * strides[0], strides[0], o, m);
      }
    });
  });
  iter.finish();
}

// A float32 iterator through the vec_math.h binary function op.
template <typename F>
void vec_binary_f32(TensorIterator& iter, BinaryMath op, const F& scalar) {
  const VecMath& m = vec_math();
  vec_binary_loop<float, float, float>(
      iter, m.binary_f32[static_cast<int>(op)], scalar,
      [rep = m.binary_scalar_f32[static_cast<int>(op)]](float* o, const float* a, const float* b,
                                                        int64_t n, bool a_scalar) {
        rep(o, a, b, n, a_scalar);
        return true;
      });
}

// The unary form: fn(O* out, const A* a, int64_t n), which may write out
// over a; contiguous rows directly, others by blocks. Rows too short to
// gather run `scalar` (A) -> O; with no scalar kernel (nullptr) they run
// by blocks too.
template <typename O, typename A, typename Fn, typename F>
void vec_unary_loop(TensorIterator& iter, Fn fn, const F& scalar) {
  iter.for_each_2d([fn, &scalar](char** data2d, const int64_t* strides,
                                 const int64_t* outer_strides, int64_t n, int64_t rows) {
    (void)scalar;  // unused when there is no scalar kernel (F is nullptr_t)
    constexpr int64_t kO = sizeof(O), kA = sizeof(A);
    if (strides[0] == kO && strides[1] == kA) {
      detail::for_each_row<2>(data2d, outer_strides, rows, [&](char** d) {
        fn(reinterpret_cast<O*>(d[0]), reinterpret_cast<const A*>(d[1]), n);
      });
      return;
    }
    detail::for_each_row<2>(data2d, outer_strides, rows, [&](char** data) {
      O* out = reinterpret_cast<O*>(data[0]);
      const bool out_contiguous = strides[0] == kO;
      if constexpr (!std::is_same_v<F, std::nullptr_t>) {
        if (n < detail::kStridedBlockMin) {
          detail::basic_loop<detail::lambda_traits<F>>(data, strides, n, scalar,
                                                       std::make_index_sequence<1>());
          return;
        }
      }
      detail::BlockBuffer<A> ba;
      detail::BlockBuffer<O> bo;
      const int64_t block = detail::row_block(strides[0], sizeof(O));
      for (int64_t i0 = 0; i0 < n; i0 += block) {
        const int64_t m = std::min(block, n - i0);
        const A* x = detail::block_input<A>(data[1], strides[1], i0, m, ba.get());
        O* o = out_contiguous ? out + i0 : bo.get();
        fn(o, x, m);
        if (!out_contiguous)
          vec_loops_detail::write_back(data[0] + i0 * strides[0], strides[0], o, m);
      }
    });
  });
  iter.finish();
}

// ---- integer, Half and BFloat16 operands of float32 functions ----

// The integer (and bool) input dtypes a float operator converts block by
// block inside its loop (vec_*_through_float) when its result is float32.
inline constexpr uint64_t kIntegerInputsToFloat = kIntegralTypes | kUnsignedTypes | kBoolType;

// Whether an input of dtype t is converted inside the loop: an integer
// dtype whose promotion gives float32 (the default dtype is float32).
inline bool converts_to_float_in_loop(ScalarType t) {
  return (kIntegerInputsToFloat & dtype_bit(t)) != 0 && default_dtype() == ScalarType::Float;
}

namespace vec_loops_detail {

// Items [i0, i0 + m) of a row of In at byte stride `stride`, converted to
// float into buf (as a conversion to float32 of the whole tensor gives
// them).
template <typename In>
inline void block_to_float(const char* row, int64_t stride, int64_t i0, int64_t m, float* buf) {
  if (stride == static_cast<int64_t>(sizeof(In))) {
    const In* in = reinterpret_cast<const In*>(row) + i0;
    for (int64_t k = 0; k < m; ++k) buf[k] = convert<float>(in[k]);
    return;
  }
  for (int64_t k = 0; k < m; ++k) {
    In v;
    std::memcpy(&v, row + (i0 + k) * stride, sizeof(In));
    buf[k] = convert<float>(v);
  }
}

// Writes m floats of buf to a row of Out at byte stride `stride` from
// item i0, converted (rounded, for Half and BFloat16).
template <typename Out>
inline void block_from_float(char* row, int64_t stride, int64_t i0, int64_t m, const float* buf) {
  for (int64_t k = 0; k < m; ++k) {
    const Out r = convert<Out>(buf[k]);
    std::memcpy(row + (i0 + k) * stride, &r, sizeof(Out));
  }
}

constexpr int64_t kFloatBlock = 256;

}  // namespace vec_loops_detail

// An iterator whose input (In) or output (Out) is not float32, through a
// float32 function fn(out, in, n) (which may write out over in): each block
// of input converted to float in a stack buffer, fn applied, the results
// converted to Out (written straight into a contiguous float32 output).
// Half and BFloat16 compute in float, as PyTorch does; an integer input is
// converted as the iterator's promotion to float would convert it, without
// a float copy of the whole input (an allocation as large as the result
// and one more pass over memory).
template <typename In, typename Out, typename Fn>
void vec_unary_through_float(TensorIterator& iter, const Fn& fn) {
  using namespace vec_loops_detail;
  iter.for_each([&fn](char** data, const int64_t* strides, int64_t n) {
    alignas(64) float buf[kFloatBlock];
    const bool direct = std::is_same_v<Out, float> && strides[0] == sizeof(float);
    for (int64_t i0 = 0; i0 < n; i0 += kFloatBlock) {
      const int64_t m = std::min(kFloatBlock, n - i0);
      block_to_float<In>(data[1], strides[1], i0, m, buf);
      if (direct) {
        fn(reinterpret_cast<float*>(data[0]) + i0, buf, m);
      } else {
        fn(buf, buf, m);
        block_from_float<Out>(data[0], strides[0], i0, m, buf);
      }
    }
  });
  iter.finish();
}

// The binary form, for two inputs of dtype In and a float32 output:
// fn(out, a, b, n).
template <typename In, typename Fn>
void vec_binary_through_float(TensorIterator& iter, const Fn& fn) {
  using namespace vec_loops_detail;
  iter.for_each([&fn](char** data, const int64_t* strides, int64_t n) {
    alignas(64) float ba[kFloatBlock];
    alignas(64) float bb[kFloatBlock];
    const bool direct = strides[0] == sizeof(float);
    for (int64_t i0 = 0; i0 < n; i0 += kFloatBlock) {
      const int64_t m = std::min(kFloatBlock, n - i0);
      block_to_float<In>(data[1], strides[1], i0, m, ba);
      block_to_float<In>(data[2], strides[2], i0, m, bb);
      if (direct) {
        fn(reinterpret_cast<float*>(data[0]) + i0, ba, bb, m);
      } else {
        fn(ba, ba, bb, m);
        block_from_float<float>(data[0], strides[0], i0, m, ba);
      }
    }
  });
  iter.finish();
}

}  // namespace st::native::cpu
