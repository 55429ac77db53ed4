// The GEMM layer under mm/bmm/addmm/matmul; see gemm.h.
#include "gemm.h"

#include <algorithm>
#include <complex>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include <oneapi/dnnl/dnnl.h>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/generated/functions.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_kernels.h"
#include "cpu/vec_reduce_kernels.h"
#include "dgemm.h"
#include "dnnl_support.h"

namespace st::native {

namespace {

// C[m, 1] = alpha * op(A) @ op(B) + beta * C, one dot product per row of
// C held in a local (a column-block accumulator would put every add
// through memory). Integers take four partial sums in unsigned
// arithmetic: they wrap as PyTorch's do, any order gives the same exact
// result, and the loop vectorizes. Floating types keep one running sum
// in k order, the order of the blocked loop.
template <typename T>
void gemv_rows(bool transa, bool transb, int64_t m, int64_t k, opmath_t<T> alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c, int64_t ldc) {
  using O = opmath_t<T>;
  const int64_t a_row = transa ? 1 : lda, a_step = transa ? lda : 1;
  const int64_t b_step = transb ? 1 : ldb;
  const int64_t grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(k, 1));
  parallel_for(0, m, grain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      const T* arow = a + i * a_row;
      T* ci = c + i * ldc;
      if constexpr (std::is_integral_v<O>) {
        using U = std::make_unsigned_t<O>;
        U acc[4] = {0, 0, 0, 0};
        int64_t p = 0;
        if (a_step == 1 && b_step == 1) {
          for (; p + 4 <= k; p += 4) {
            for (int64_t j = 0; j < 4; ++j) acc[j] += U(U(arow[p + j]) * U(b[p + j]));
          }
        }
        for (; p < k; ++p) acc[0] += U(U(arow[p * a_step]) * U(b[p * b_step]));
        const U sum = U(U(acc[0] + acc[1]) + U(acc[2] + acc[3]));
        U v = U(U(alpha) * sum);
        if (beta != O(0)) v = U(v + U(U(beta) * U(*ci)));
        *ci = static_cast<T>(v);
      } else {
        O acc = O(0);
        for (int64_t p = 0; p < k; ++p) {
          acc += to_opmath(arow[p * a_step]) * to_opmath(b[p * b_step]);
        }
        const O v = beta == O(0) ? alpha * acc : alpha * acc + beta * to_opmath(*ci);
        *ci = from_opmath<T>(v);
      }
    }
  });
}

// C[i, j] = alpha * sum + beta * C[i, j] for one finished sum, in T's
// opmath type; C is not read when beta is 0.
template <typename T>
inline void store_gemm_result(opmath_t<T> sum, opmath_t<T> alpha, opmath_t<T> beta, T* c) {
  using O = opmath_t<T>;
  const O v = beta == O(0) ? alpha * sum : alpha * sum + beta * to_opmath(*c);
  *c = from_opmath<T>(v);
}

template <typename T>
void gemm_blocked(bool transa, bool transb, int64_t m, int64_t n, int64_t k, opmath_t<T> alpha,
                  const T* a, int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c,
                  int64_t ldc) {
  using O = opmath_t<T>;
  if (n == 1) {
    gemv_rows<T>(transa, transb, m, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  // Rows of C split over the thread pool. A task builds its rows kBlockM
  // at a time, kBlockN columns at a time, in an opmath accumulator
  // (kBlockM x kBlockN), and walks B in blocks of kBlockK rows: each block
  // (at most 128 x 256 elements, 256 KiB of int64) stays in the L2 cache
  // while all kBlockM rows use it, where a whole strip of B's rows (k x
  // kBlockN: 2 MiB for k = 1024) was read again for every row of C. Every
  // element still sums its products in increasing p, so the results are
  // those of the plain triple loop, bit for bit.
  constexpr int64_t kBlockM = 64, kBlockN = 256, kBlockK = 128;
  const int64_t grain =
      std::max<int64_t>(1, 65536 / std::max<int64_t>(1, n * std::max<int64_t>(k, 1)));
  [[maybe_unused]] const auto gemm_i64 = cpu::vec_kernels().gemm_i64;
  parallel_for(0, m, grain, [&](int64_t i0, int64_t i1) {
    const int64_t rows = std::min(kBlockM, i1 - i0);
    const int64_t cols = std::min(kBlockN, std::max<int64_t>(n, 1));
    std::vector<O> acc(static_cast<size_t>(rows * cols));
    for (int64_t ib = i0; ib < i1; ib += kBlockM) {
      const int64_t im = std::min(kBlockM, i1 - ib);
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        const int64_t jn = std::min(kBlockN, n - j0);
        std::fill(acc.begin(), acc.begin() + im * jn, O(0));
        for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
          const int64_t p1 = std::min(k, p0 + kBlockK);
          if constexpr (std::is_same_v<T, int64_t>) {
            if (!transb) {
              // The per-ISA block update: C's block in registers.
              const int64_t a_row = transa ? 1 : lda, a_step = transa ? lda : 1;
              gemm_i64(acc.data(), jn, a + ib * a_row + p0 * a_step, a_row, a_step,
                       b + p0 * ldb + j0, ldb, im, p1 - p0, jn);
              continue;
            }
          }
          for (int64_t r = 0; r < im; ++r) {
            const int64_t i = ib + r;
            O* row = acc.data() + r * jn;
            for (int64_t p = p0; p < p1; ++p) {
              const O av = to_opmath(transa ? a[p * lda + i] : a[i * lda + p]);
              if (!transb) {
                const T* brow = b + p * ldb + j0;
                for (int64_t j = 0; j < jn; ++j) row[j] += av * to_opmath(brow[j]);
              } else {
                const T* bcol = b + j0 * ldb + p;
                for (int64_t j = 0; j < jn; ++j) row[j] += av * to_opmath(bcol[j * ldb]);
              }
            }
          }
        }
        for (int64_t r = 0; r < im; ++r) {
          const O* row = acc.data() + r * jn;
          T* crow = c + (ib + r) * ldc + j0;
          for (int64_t j = 0; j < jn; ++j) store_gemm_result<T>(row[j], alpha, beta, crow + j);
        }
      }
    }
  });
}

// Note [Integer products through a floating GEMM]
// An integer product is exact in floating arithmetic when no partial sum
// can leave the integers the type holds exactly: k * max|a| * max|b|
// bounds every product and every partial sum, in any summation order,
// fused or not. Within 2^24 the product runs the float GEMM (oneDNN) on
// float copies of the operands, within 2^53 the double GEMM (dgemm.h) on
// double copies: small counts, indices, masks and quantized values take
// the first (for k = 1024, operands up to 128 in magnitude), values up to
// about 2^21 the second. 1024^3 int64 products run about 7 times (float)
// and 3 times (double) as fast as in the blocked loop, which vpmullq's
// throughput caps, conversions included (bench_gemm's BM_Mm1024Int64 in
// one run). Each exact sum is then wrapped to the width of T's
// accumulator, as the blocked loop's accumulation would have wrapped it
// (a sum modulo 2^bits does not depend on when the wrapping happens), so
// the results are the blocked loop's, bit for bit. Products too small
// to repay the conversions (kExactMinVolume, and kExactMinDim, so that
// thin products such as matrix-vector stay on the memory-bound loop),
// with larger values, or whose copies would take more than
// kExactMaxBytes, run the blocked loop.
constexpr int64_t kExactMinVolume = 48 * 48 * 48;
constexpr int64_t kExactMinDim = 32;
constexpr uint64_t kExactMaxBytes = uint64_t{1} << 30;
constexpr uint64_t kExactInFloat = uint64_t{1} << 24;
constexpr uint64_t kExactInDouble = uint64_t{1} << 53;

// The largest magnitude in a rows x cols matrix of integers whose rows
// are ld elements apart, as unsigned (|INT64_MIN| included).
template <typename T>
uint64_t max_magnitude(const T* x, int64_t rows, int64_t cols, int64_t ld) {
  const auto magnitude = [](T v) {
    if constexpr (std::is_signed_v<T>) {
      return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    } else {
      return static_cast<uint64_t>(v);
    }
  };
  uint64_t most = 0;
  const cpu::VecReduceKernels& kernels = cpu::vec_reduce_kernels();
  for (int64_t i = 0; i < rows; ++i) {
    const T* row = x + i * ld;
    if constexpr (std::is_same_v<T, int64_t>) {
      most = std::max({most, magnitude(cpu::one_run(kernels.max_i64, row, cols)),
                       magnitude(cpu::one_run(kernels.min_i64, row, cols))});
    } else {
      for (int64_t j = 0; j < cols; ++j) most = std::max(most, magnitude(row[j]));
    }
  }
  return most;
}

// The rows x cols matrix at x (rows ld apart) as dense F at out.
template <typename F, typename T>
void to_dense(const T* x, int64_t rows, int64_t cols, int64_t ld, F* out) {
  const int64_t grain = std::max<int64_t>(1, 32768 / cols);
  parallel_for(0, rows, grain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      const T* row = x + i * ld;
      F* o = out + i * cols;
      for (int64_t j = 0; j < cols; ++j) o[j] = static_cast<F>(row[j]);
    }
  });
}

// The product through the GEMM of F, whose every sum is known to be an
// integer that F holds exactly (`elements` = mk + kn + mn copies).
template <typename F, typename T>
bool gemm_exact_in(bool transa, bool transb, int64_t m, int64_t n, int64_t k, opmath_t<T> alpha,
                   const T* a, int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c,
                   int64_t ldc, int64_t elements) {
  using O = opmath_t<T>;
  using U = std::make_unsigned_t<O>;
  if (static_cast<uint64_t>(elements) > kExactMaxBytes / sizeof(F)) return false;
  std::unique_ptr<F[]> buffer(new (std::nothrow) F[static_cast<size_t>(elements)]);
  if (!buffer) return false;
  const int64_t a_rows = transa ? k : m, a_cols = transa ? m : k;
  const int64_t b_rows = transb ? n : k, b_cols = transb ? k : n;
  F* fa = buffer.get();
  F* fb = fa + m * k;
  F* fc = fb + k * n;
  to_dense(a, a_rows, a_cols, lda, fa);
  to_dense(b, b_rows, b_cols, ldb, fb);
  gemm<F>(transa, transb, m, n, k, F(1), fa, a_cols, fb, b_cols, F(0), fc, n);
  const int64_t grain = std::max<int64_t>(1, 32768 / n);
  parallel_for(0, m, grain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        // Exact, then wrapped to O's width as the loop's sum.
        const auto exact = static_cast<int64_t>(fc[i * n + j]);
        store_gemm_result<T>(static_cast<O>(static_cast<U>(static_cast<uint64_t>(exact))), alpha,
                             beta, c + i * ldc + j);
      }
    }
  });
  return true;
}

// An integer product through a floating GEMM (Note [Integer products
// through a floating GEMM]); false, with C untouched, when it does not
// qualify.
template <typename T>
bool gemm_exact(bool transa, bool transb, int64_t m, int64_t n, int64_t k, opmath_t<T> alpha,
                const T* a, int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c,
                int64_t ldc) {
  static_assert(std::is_integral_v<opmath_t<T>>, "integer products only");
  if (m < kExactMinDim || n < kExactMinDim || k < kExactMinDim) return false;
  int64_t mk = 0, kn = 0, mn = 0, volume = 0, elements = 0;
  if (__builtin_mul_overflow(m, k, &mk) || __builtin_mul_overflow(k, n, &kn) ||
      __builtin_mul_overflow(m, n, &mn) || __builtin_add_overflow(mk, kn, &elements) ||
      __builtin_add_overflow(elements, mn, &elements)) {
    return false;
  }
  if (!__builtin_mul_overflow(mn, k, &volume) && volume < kExactMinVolume) return false;
  const uint64_t most_a = max_magnitude(a, transa ? k : m, transa ? m : k, lda);
  const uint64_t most_b = max_magnitude(b, transb ? n : k, transb ? k : n, ldb);
  uint64_t bound = 0;
  if (__builtin_mul_overflow(most_a, most_b, &bound) ||
      __builtin_mul_overflow(bound, static_cast<uint64_t>(k), &bound) || bound > kExactInDouble) {
    return false;
  }
  return bound <= kExactInFloat ? gemm_exact_in<float>(transa, transb, m, n, k, alpha, a, lda, b,
                                                       ldb, beta, c, ldc, elements)
                                : gemm_exact_in<double>(transa, transb, m, n, k, alpha, a, lda, b,
                                                        ldb, beta, c, ldc, elements);
}

// Products up to kSmallVolume multiply-adds run the per-ISA register-tiled
// kernel: oneDNN's sgemm spends about 0.4 us per call before its first
// product here, which is most of a 16 x 16 x 16 product's time
// (bench_gemm's BM_MmOutFloatSmall beside BM_DnnlSgemmDirectSmall gives
// the crossover).
constexpr int64_t kSmallVolume = 64 * 64 * 64;

bool is_small_product(int64_t m, int64_t n, int64_t k) {
  // Each dim bounded first, so the volume cannot overflow.
  return m <= kSmallVolume && n <= kSmallVolume && k <= kSmallVolume && m * n <= kSmallVolume &&
         m * n * k <= kSmallVolume;
}

void sgemm_small(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                 int64_t ldc) {
  const auto kernel = cpu::vec_kernels().gemm_f32;
  const int64_t a_row = transa ? 1 : lda, a_step = transa ? lda : 1;
  if (!transb) {
    kernel(c, ldc, a, a_row, a_step, b, ldb, m, k, n, alpha, beta);
    return;
  }
  // The kernel reads rows of B: a transposed B is copied row-major first,
  // on the stack up to 16 KiB (no allocation in a call that may take a
  // few hundred nanoseconds), else on the heap (up to kSmallVolume
  // floats, when m is 1).
  constexpr int64_t kStackFloats = 4096;
  alignas(64) float stack_rows[kStackFloats];
  std::vector<float> heap_rows;
  float* rows = stack_rows;
  if (k * n > kStackFloats) {
    heap_rows.resize(static_cast<size_t>(k * n));
    rows = heap_rows.data();
  }
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) rows[p * n + j] = b[j * ldb + p];
  }
  kernel(c, ldc, a, a_row, a_step, rows, n, m, k, n, alpha, beta);
}

}  // namespace

template <typename T>
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, opmath_t<T> alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0) {
      // oneDNN requires lda >= 1 etc.; C = beta * C by hand.
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
        }
      }
      return;
    }
    if (is_small_product(m, n, k)) {
      sgemm_small(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
    }
    sync_dnnl_threads();
    const char ta = transa ? 'T' : 'N';
    const char tb = transb ? 'T' : 'N';
    check_dnnl(dnnl_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc), "dnnl_sgemm");
  } else if constexpr (std::is_same_v<T, double>) {
    dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    if constexpr (std::is_integral_v<T>) {
      if (gemm_exact<T>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) {
        return;
      }
    }
    gemm_blocked<T>(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

GemmOperand gemm_layout(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  // Strides of size-1 dims carry no information and are ignored.
  const int64_t r1 = std::max<int64_t>(rows, 1), c1 = std::max<int64_t>(cols, 1);
  GemmOperand g;
  if ((col_stride == 1 || cols <= 1) && (rows <= 1 || row_stride >= c1)) {
    g.ok = true;
    g.trans = false;
    g.ld = rows <= 1 ? c1 : row_stride;
  } else if ((row_stride == 1 || rows <= 1) && (cols <= 1 || col_stride >= r1)) {
    // Column-major: the transpose of a row-major [cols, rows] matrix.
    g.ok = true;
    g.trans = true;
    g.ld = cols <= 1 ? r1 : col_stride;
  }
  return g;
}

namespace {
bool is_zero(const Scalar& s) {
  if (s.isComplex()) return s.toComplexDouble() == std::complex<double>(0, 0);
  return s.toDouble() == 0;
}
}  // namespace

void gemm_tensors(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha,
                  const Scalar& beta, const char* op) {
  const int64_t dims = a.dim();
  ST_CHECK((dims == 2 || dims == 3) && out.dim() == dims && b.dim() == dims, op,
           ": internal error: gemm_tensors expects 2-d or 3-d operands");
  // A 2-d product is a batch of one, read without building 3-d views.
  const int64_t r = dims - 2;  // the rows' dim
  const int64_t batch = dims == 3 ? a.size(0) : 1;
  const int64_t m = a.size(r), k = a.size(r + 1), n = b.size(r + 1);
  if (batch == 0 || m == 0 || n == 0) return;
  Tensor A = a, B = b;
  GemmOperand ga = gemm_layout(m, k, A.stride(r), A.stride(r + 1));
  if (!ga.ok) {
    A = st::contiguous(a);
    ga = gemm_layout(m, k, A.stride(r), A.stride(r + 1));
  }
  GemmOperand gb = gemm_layout(k, n, B.stride(r), B.stride(r + 1));
  if (!gb.ok) {
    B = st::contiguous(b);
    gb = gemm_layout(k, n, B.stride(r), B.stride(r + 1));
  }
  // The output must be row-major (C) or column-major (compute C^T), and may
  // not share memory with an input (the product would read what it wrote).
  Tensor C = out;
  GemmOperand gc = gemm_layout(m, n, C.stride(r), C.stride(r + 1));
  const bool aliased = (out.is_alias_of(a) || out.is_alias_of(b));
  const bool copy_back = !gc.ok || aliased;
  if (copy_back) {
    C = st::detail::empty_generic(out.sizes(), out.dtype(), out.device());
    if (!is_zero(beta)) copy_into(C, out);
    gc = gemm_layout(m, n, C.stride(r), C.stride(r + 1));
  }
  const int64_t sa = dims == 3 ? A.stride(0) : 0, sb = dims == 3 ? B.stride(0) : 0,
                sc = dims == 3 ? C.stride(0) : 0;
  dispatch_dtype<kGemmTypes>(out.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    const O al = scalar_as<O>(alpha);
    const O be = scalar_as<O>(beta);
    const T* pa = static_cast<const T*>(A.const_data_ptr());
    const T* pb = static_cast<const T*>(B.const_data_ptr());
    T* pc = static_cast<T*>(C.data_ptr());
    auto one = [&](int64_t i) {
      if (!gc.trans) {
        gemm<T>(ga.trans, gb.trans, m, n, k, al, pa + i * sa, ga.ld, pb + i * sb, gb.ld, be,
                pc + i * sc, gc.ld);
      } else {
        // C^T[n, m] = op(B)^T op(A)^T: swap the operands, flip their trans.
        gemm<T>(!gb.trans, !ga.trans, n, m, k, al, pb + i * sb, gb.ld, pa + i * sa, ga.ld, be,
                pc + i * sc, gc.ld);
      }
    };
    // Small products: one per task over the batch; large ones: one after
    // the other, each parallel inside.
    if (batch > 1 && m * n * std::max<int64_t>(k, 1) < 64 * 64 * 64) {
      parallel_for(0, batch, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t i = b0; i < b1; ++i) one(i);
      });
    } else {
      for (int64_t i = 0; i < batch; ++i) one(i);
    }
  });
  if (copy_back) copy_into(out, C);
}

#define ST_GEMM_INSTANTIATE_(T)                                                                \
  template void gemm<T>(bool, bool, int64_t, int64_t, int64_t, opmath_t<T>, const T*, int64_t, \
                        const T*, int64_t, opmath_t<T>, T*, int64_t);
ST_GEMM_INSTANTIATE_(float)
ST_GEMM_INSTANTIATE_(double)
ST_GEMM_INSTANTIATE_(Half)
ST_GEMM_INSTANTIATE_(BFloat16)
ST_GEMM_INSTANTIATE_(uint8_t)
ST_GEMM_INSTANTIATE_(int8_t)
ST_GEMM_INSTANTIATE_(int16_t)
ST_GEMM_INSTANTIATE_(int32_t)
ST_GEMM_INSTANTIATE_(int64_t)
ST_GEMM_INSTANTIATE_(hcomplex<float>)
ST_GEMM_INSTANTIATE_(hcomplex<double>)
#undef ST_GEMM_INSTANTIATE_

}  // namespace st::native
