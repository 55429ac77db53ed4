// Internal: the elementwise iterator loops over the per-ISA array
// functions (the vec_kernels.h and vec_math.h tables), shared by the
// binary operators, the comparisons and the logical and bitwise ops.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "vec_math.h"

namespace st::native::cpu {

// An iterator with output O and inputs A, B through fn(O* out, const A* a,
// const B* b, int64_t n), which may write out over a or b. Contiguous
// chunks run fn directly, and so do chunks with one stride-0 operand (a
// Scalar argument, a column broadcast along rows): its value is repeated
// in a stack buffer once per chunk. Other layouts (strided, broadcast
// rows) run fn by blocks (Note [Strided operands by blocks] in loops.h),
// except chunks too short to gather, which run the scalar kernel `scalar`
// (A, B) -> O. fn must match `scalar` bit for bit (tests/core/native/cpu/
// test_vec_kernels.cpp, test_vec_math.cpp), so an element's result never
// depends on its layout.
template <typename O, typename A, typename B, typename Fn, typename F>
void vec_binary_loop(TensorIterator& iter, Fn fn, const F& scalar) {
  iter.for_each([fn, &scalar](char** data, const int64_t* strides, int64_t n) {
    using detail::BlockBuffer;
    using detail::kStridedBlock;
    constexpr int64_t kO = sizeof(O), kA = sizeof(A), kB = sizeof(B);
    O* out = reinterpret_cast<O*>(data[0]);
    const A* pa = reinterpret_cast<const A*>(data[1]);
    const B* pb = reinterpret_cast<const B*>(data[2]);
    const bool out_contiguous = strides[0] == kO;
    if (out_contiguous && strides[1] == kA && strides[2] == kB) {
      fn(out, pa, pb, n);
      return;
    }
    const bool a_rep = strides[1] == 0 && strides[2] == kB;
    const bool b_rep = strides[1] == kA && strides[2] == 0;
    if (out_contiguous && n > 1 && (a_rep || b_rep)) {
      const int64_t fill = std::min(kStridedBlock, n);
      BlockBuffer<A> ra;
      BlockBuffer<B> rb;
      if (a_rep) std::fill(ra.get(), ra.get() + fill, pa[0]);
      if (b_rep) std::fill(rb.get(), rb.get() + fill, pb[0]);
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
    for (int64_t i0 = 0; i0 < n; i0 += kStridedBlock) {
      const int64_t m = std::min(kStridedBlock, n - i0);
      const A* x = detail::block_input<A>(data[1], strides[1], i0, m, ba.get());
      const B* y = detail::block_input<B>(data[2], strides[2], i0, m, bb.get());
      O* o = out_contiguous ? out + i0 : bo.get();
      fn(o, x, y, m);
      if (!out_contiguous) {
        char* w = data[0] + i0 * strides[0];
        for (int64_t k = 0; k < m; ++k) std::memcpy(w + k * strides[0], &o[k], kO);
      }
    }
  });
  iter.finish();
}

// A float32 iterator through the vec_math.h binary function op.
template <typename F>
void vec_binary_f32(TensorIterator& iter, BinaryMath op, const F& scalar) {
  vec_binary_loop<float, float, float>(iter, vec_math().binary_f32[static_cast<int>(op)], scalar);
}

// The unary form: fn(O* out, const A* a, int64_t n), which may write out
// over a; contiguous chunks directly, others by blocks, short strided
// chunks through `scalar` (A) -> O.
template <typename O, typename A, typename Fn, typename F>
void vec_unary_loop(TensorIterator& iter, Fn fn, const F& scalar) {
  iter.for_each([fn, &scalar](char** data, const int64_t* strides, int64_t n) {
    using detail::kStridedBlock;
    constexpr int64_t kO = sizeof(O), kA = sizeof(A);
    O* out = reinterpret_cast<O*>(data[0]);
    const bool out_contiguous = strides[0] == kO;
    if (out_contiguous && strides[1] == kA) {
      fn(out, reinterpret_cast<const A*>(data[1]), n);
      return;
    }
    if (n < detail::kStridedBlockMin) {
      detail::basic_loop<detail::lambda_traits<F>>(data, strides, n, scalar,
                                                   std::make_index_sequence<1>());
      return;
    }
    detail::BlockBuffer<A> ba;
    detail::BlockBuffer<O> bo;
    for (int64_t i0 = 0; i0 < n; i0 += kStridedBlock) {
      const int64_t m = std::min(kStridedBlock, n - i0);
      const A* x = detail::block_input<A>(data[1], strides[1], i0, m, ba.get());
      O* o = out_contiguous ? out + i0 : bo.get();
      fn(o, x, m);
      if (!out_contiguous) {
        char* w = data[0] + i0 * strides[0];
        for (int64_t k = 0; k < m; ++k) std::memcpy(w + k * strides[0], &o[k], kO);
      }
    }
  });
  iter.finish();
}

}  // namespace st::native::cpu
