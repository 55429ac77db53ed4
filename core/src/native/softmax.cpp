// softmax.int and log_softmax.int, delegating (as in PyTorch) to the CPU
// kernels _softmax and _log_softmax. Rows along `dim` are shifted by their
// maximum before exponentiating, so large inputs do not overflow; Half and
// BFloat16 compute in float.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_math.h"
#include "host_memory.h"

namespace st::native {

namespace {

template <typename T, bool kLog>
void softmax_kernel(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
  using O = opmath_t<T>;
  if (n == 1) {
    // A softmax of one element: x - x (0, or NaN for an infinite or NaN
    // x), plus 1 unless logarithmic, which the steps below give without
    // their exp and log per element (log_softmax over dim 0 of [1, 1024,
    // 1024] floats took 2.9 ms, PyTorch 1.9).
    parallel_for(0, outer * inner, 32768, [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) {
        const O v = to_opmath(x[i]);
        y[i] = from_opmath<T>(kLog ? v - v : (v - v) + O(1));
      }
    });
    return;
  }
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n * inner, 1));
  if constexpr (std::is_same_v<T, float>) {
    if (inner == 1) {
      const auto row = cpu::vec_math().softmax_row_f32;
      parallel_for(0, outer, grain, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o) row(y + o * n, x + o * n, n, kLog);
      });
      return;
    }
    // dim is not the last one: blocks of n rows by `width` adjacent
    // columns, each column a softmax of its own, vectorized across the
    // columns. A block is read three times, so it is sized to stay in L2,
    // and is at least a few vectors wide.
    const auto cols = cpu::vec_math().softmax_cols_f32;
    constexpr int64_t kBlockFloats = (256 << 10) / sizeof(float);
    const int64_t width = std::min(inner, std::max<int64_t>(64, kBlockFloats / n));
    const int64_t per_outer = (inner + width - 1) / width;
    const int64_t block_grain = std::max<int64_t>(1, 32768 / (n * width));
    parallel_for(0, outer * per_outer, block_grain, [&](int64_t b0, int64_t b1) {
      std::vector<float> work(static_cast<size_t>(2 * width));
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t o = b / per_outer, c0 = b % per_outer * width;
        const int64_t at = o * n * inner + c0;
        cols(y + at, x + at, n, std::min(width, inner - c0), inner, kLog, work.data());
      }
    });
    return;
  }
  if (inner == 1) {
    parallel_for(0, outer, grain, [&](int64_t o0, int64_t o1) {
      for (int64_t o = o0; o < o1; ++o) {
        const T* xr = x + o * n;
        T* yr = y + o * n;
        O mx = -std::numeric_limits<O>::infinity();
        for (int64_t k = 0; k < n; ++k) mx = std::max(mx, to_opmath(xr[k]));
        // A row of -inf (or containing +inf) stays NaN/-inf as in PyTorch.
        O sum = 0;
        for (int64_t k = 0; k < n; ++k) sum += std::exp(to_opmath(xr[k]) - mx);
        if constexpr (kLog) {
          const O lse = std::log(sum);
          for (int64_t k = 0; k < n; ++k) yr[k] = from_opmath<T>(to_opmath(xr[k]) - mx - lse);
        } else {
          const O inv = O(1) / sum;
          for (int64_t k = 0; k < n; ++k)
            yr[k] = from_opmath<T>(std::exp(to_opmath(xr[k]) - mx) * inv);
        }
      }
    });
    return;
  }
  // dim is not the last one (double, Half, BFloat16): all `inner` columns
  // of an outer index side by side, so the loops run over contiguous
  // memory.
  parallel_for(0, outer, grain, [&](int64_t o0, int64_t o1) {
    std::vector<O> mx(static_cast<size_t>(inner)), sum(static_cast<size_t>(inner));
    for (int64_t o = o0; o < o1; ++o) {
      const T* xb = x + o * n * inner;
      T* yb = y + o * n * inner;
      std::fill(mx.begin(), mx.end(), -std::numeric_limits<O>::infinity());
      std::fill(sum.begin(), sum.end(), O(0));
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < inner; ++i) mx[i] = std::max(mx[i], to_opmath(xb[k * inner + i]));
      }
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < inner; ++i)
          sum[i] += std::exp(to_opmath(xb[k * inner + i]) - mx[i]);
      }
      for (int64_t i = 0; i < inner; ++i) {
        sum[i] = kLog ? std::log(sum[i]) : O(1) / sum[i];
      }
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < inner; ++i) {
          const O v = to_opmath(xb[k * inner + i]) - mx[i];
          yb[k * inner + i] = from_opmath<T>(kLog ? v - sum[i] : std::exp(v) * sum[i]);
        }
      }
    }
  });
}

template <bool kLog>
void softmax_into(const Tensor& out, const Tensor& self, int64_t dim, bool half_to_float,
                  const char* op) {
  ST_CHECK(!half_to_float, op, ": softmax with half to float conversion is not supported on CPU");
  check_host_memory(self, op, "self");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const Tensor x = st::contiguous(self);
  int64_t outer = 1, inner = 1;
  const int64_t n = self.dim() ? self.size(d) : 1;
  for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
  for (int64_t i = d + 1; i < self.dim(); ++i) inner *= self.size(i);
  Tensor y = out.is_contiguous()
                 ? out
                 : st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  // An empty input gives its empty result before the dtype is looked at,
  // as in PyTorch (an empty bool log_softmax succeeds).
  if (self.numel() > 0) {
    dispatch_dtype<kAllFloat>(self.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      softmax_kernel<T, kLog>(static_cast<const T*>(x.const_data_ptr()),
                              static_cast<T*>(y.data_ptr()), outer, n, inner);
    });
  }
  if (!y.is_same(out)) copy_into(out, y);
}

template <bool kLog>
Tensor softmax_out_impl(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out,
                        const char* op) {
  ST_CHECK(out.dtype() == self.dtype(), op, ": Expected out tensor to have dtype ",
           torch::headeronly::toString(self.dtype()), ", but got ",
           torch::headeronly::toString(out.dtype()), " instead");
  assert_no_partial_overlap(out, self, op);
  if (out.is_alias_of(self) && out.numel() > 0) {
    Tensor tmp = st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
    softmax_into<kLog>(tmp, self, dim, half_to_float, op);
    resize_output(out, self.sizes());
    copy_into(out, tmp);
    return out;
  }
  resize_output(out, self.sizes());
  softmax_into<kLog>(out, self, dim, half_to_float, op);
  return out;
}

Tensor converted(const Tensor& self, std::optional<ScalarType> dtype) {
  return dtype.has_value() ? to_dtype(self, *dtype) : self;
}

}  // namespace

Tensor softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  Tensor out = st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  softmax_into<false>(out, self, dim, half_to_float, "softmax");
  return out;
}

Tensor softmax_cpu_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return softmax_out_impl<false>(self, dim, half_to_float, out, "softmax");
}

Tensor log_softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  Tensor out = st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  softmax_into<true>(out, self, dim, half_to_float, "log_softmax");
  return out;
}

Tensor log_softmax_cpu_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return softmax_out_impl<true>(self, dim, half_to_float, out, "log_softmax");
}

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return st::_softmax(converted(self, dtype), dim, false);
}

Tensor softmax_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
                   const Tensor& out) {
  return st::_softmax_out(out, converted(self, dtype), dim, false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return st::_log_softmax(converted(self, dtype), dim, false);
}

Tensor log_softmax_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
                       const Tensor& out) {
  return st::_log_softmax_out(out, converted(self, dtype), dim, false);
}

}  // namespace st::native
