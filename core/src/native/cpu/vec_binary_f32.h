// Internal: the float32 elementwise iterator loop over a vec_math.h binary
// function, shared by the binary operators and the comparisons.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "vec_math.h"

namespace st::native::cpu {

// A float32 iterator through the vector function. Contiguous chunks run
// it directly, and so do chunks with one stride-0 operand (a Scalar
// argument, a column broadcast along rows): its value is repeated in a
// stack buffer once per chunk. Other layouts (strided, one element) are
// gathered into stack buffers when `gather` (operators whose scalar code is
// far slower: fmod, trunc), else run the scalar kernel `scalar`, which the
// vector function matches bit for bit (tests/core/native/cpu/
// test_vec_math.cpp), so an element's result never depends on its layout.
template <typename F>
void vec_binary_f32(TensorIterator& iter, BinaryMath op, bool gather, const F& scalar) {
  const auto fn = vec_math().binary_f32[static_cast<int>(op)];
  iter.for_each_2d([fn, gather, &scalar](char** data2d, const int64_t* strides,
                                         const int64_t* outer_strides, int64_t n, int64_t rows) {
    ::st::native::detail::for_each_row<3>(data2d, outer_strides, rows, [&](char** data) {
      constexpr int64_t kItem = sizeof(float);
      constexpr int64_t kBuf = 256;
      float* out = reinterpret_cast<float*>(data[0]);
      const float* pa = reinterpret_cast<const float*>(data[1]);
      const float* pb = reinterpret_cast<const float*>(data[2]);
      if (strides[0] == kItem && strides[1] == kItem && strides[2] == kItem) {
        fn(out, pa, pb, n);
        return;
      }
      const bool a_rep = strides[1] == 0 && strides[2] == kItem;
      const bool b_rep = strides[1] == kItem && strides[2] == 0;
      if (strides[0] == kItem && n > 1 && (a_rep || b_rep)) {
        float rep[kBuf];
        const float v = a_rep ? pa[0] : pb[0];
        for (int64_t k = 0; k < std::min(kBuf, n); ++k) rep[k] = v;
        for (int64_t i0 = 0; i0 < n; i0 += kBuf) {
          fn(out + i0, a_rep ? rep : pa + i0, b_rep ? rep : pb + i0, std::min(kBuf, n - i0));
        }
        return;
      }
      if (!gather) {
        ::st::native::detail::basic_loop<::st::native::detail::lambda_traits<F>>(
            data, strides, n, scalar, std::make_index_sequence<2>());
        return;
      }
      float a[kBuf], b[kBuf];
      for (int64_t i0 = 0; i0 < n; i0 += kBuf) {
        const int64_t m = std::min(kBuf, n - i0);
        for (int64_t k = 0; k < m; ++k) {
          std::memcpy(&a[k], data[1] + (i0 + k) * strides[1], kItem);
          std::memcpy(&b[k], data[2] + (i0 + k) * strides[2], kItem);
        }
        fn(a, a, b, m);
        for (int64_t k = 0; k < m; ++k) {
          std::memcpy(data[0] + (i0 + k) * strides[0], &a[k], kItem);
        }
      }
    });
  });
  iter.finish();
}

}  // namespace st::native::cpu
