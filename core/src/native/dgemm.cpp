// The double GEMM; see dgemm.h.
//
// The classic blocking, for the tile kernel's two streams: B is packed
// kDgemmDepth rows x kDgemmWidth columns at a time (1 MiB, in the L2
// cache) into panels one tile wide; A a row block of kDgemmBlockTiles
// tiles at a time into panels one tile tall. Each panel of A (12 x 128
// doubles on AVX-512, 12 KiB) stays in the L1 cache while every panel of
// B streams past it from the L2. The sizes were chosen beside OpenBLAS's
// own AVX-512 kernel on 1024 x 1024 products, timed in one process
// (bench_gemm's 512 x 512 rows compare the two). Edge tiles run
// the same kernel on zero-padded panels into a stack tile that holds a
// copy of C's valid part, so an edge element rounds as any other.
#include "dgemm.h"

#include <algorithm>
#include <memory>

#include <st/core/error.h>
#include <st/core/parallel.h>

#include "cpu/vec_kernels.h"
#include "cpu/vec_reduce_kernels.h"

namespace st::native {

namespace {

constexpr int64_t kDgemmDepth = 128;        // rows of B (columns of A) per packed block
constexpr int64_t kDgemmWidth = 1024;       // columns of B per packed block
constexpr int64_t kDgemmBlockTiles = 8;     // tiles of rows of A per packed block
constexpr int64_t kDgemmMaxTile = 16 * 16;  // the largest tile of any ISA, doubles

int64_t round_up(int64_t x, int64_t step) { return (x + step - 1) / step * step; }

// C = beta * C for the rows x cols of C; C unread when beta == 0.
void scale_c(int64_t m, int64_t n, double beta, double* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.0 ? 0.0 : beta * c[i * ldc + j];
  }
}

// Packs `count` lines of kc elements, line x's element p at src[x * sx +
// p * sp], into panels of `width` lines: panel t holds, for each p, lines
// [t * width, (t + 1) * width), zero past count. A's row block packs its
// rows (the lines) into panels one tile tall, B's block its columns into
// panels one tile wide. The source is read along its rows: p-major when
// the lines' elements are adjacent (sx == 1), line by line otherwise.
void pack_panels(const double* src, int64_t sx, int64_t sp, int64_t count, int64_t kc,
                 int64_t width, double* out) {
  for (int64_t t = 0; t * width < count; ++t) {
    double* panel = out + t * kc * width;
    const int64_t lines = std::min(width, count - t * width);
    const double* first = src + t * width * sx;
    if (sx == 1) {
      for (int64_t p = 0; p < kc; ++p) {
        std::copy(first + p * sp, first + p * sp + lines, panel + p * width);
      }
    } else {
      for (int64_t x = 0; x < lines; ++x) {
        for (int64_t p = 0; p < kc; ++p) panel[p * width + x] = first[x * sx + p * sp];
      }
    }
    for (int64_t p = 0; p < kc; ++p) {
      std::fill(panel + p * width + lines, panel + (p + 1) * width, 0.0);
    }
  }
}

// y[x * ys] = alpha * S(x) + beta * y[x * ys] for x < len, S(x) = sum over
// p < k of mat[x * mx + p * mp] * v[p * vs]: a matrix-vector product,
// memory-bound, which the tile would pad to a whole tile of rows or
// columns. Lines of mat along p with v contiguous are dot products (the
// per-ISA dot_f64); lines across p (mx == 1) are accumulated one p at a
// time, columns of y blocked so the block stays in L1.
void thin_product(int64_t len, int64_t k, const double* mat, int64_t mx, int64_t mp,
                  const double* v, int64_t vs, double alpha, double beta, double* y, int64_t ys) {
  const auto finish = [&](int64_t x, double sum) {
    double& out = y[x * ys];
    out = beta == 0.0 ? alpha * sum : alpha * sum + beta * out;
  };
  if (mp == 1 && vs == 1) {
    const auto dot = cpu::vec_reduce_kernels().dot_f64;
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(k, 1));
    parallel_for(0, len, grain, [&](int64_t x0, int64_t x1) {
      for (int64_t x = x0; x < x1; ++x) finish(x, dot(mat + x * mx, v, k));
    });
    return;
  }
  constexpr int64_t kBlock = 1024;
  parallel_for(0, (len + kBlock - 1) / kBlock, 1, [&](int64_t b0, int64_t b1) {
    alignas(64) double acc[kBlock];
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t x0 = blk * kBlock, count = std::min(kBlock, len - x0);
      std::fill(acc, acc + count, 0.0);
      int64_t p = 0;
      if (mx == 1) {
        // Four lines per pass over the block: one load and store of acc
        // per four products.
        for (; p + 4 <= k; p += 4) {
          const double v0 = v[p * vs], v1 = v[(p + 1) * vs], v2 = v[(p + 2) * vs],
                       v3 = v[(p + 3) * vs];
          const double* l0 = mat + x0 + p * mp;
          const double *l1 = l0 + mp, *l2 = l1 + mp, *l3 = l2 + mp;
          for (int64_t x = 0; x < count; ++x) {
            acc[x] += ((v0 * l0[x] + v1 * l1[x]) + (v2 * l2[x] + v3 * l3[x]));
          }
        }
      }
      for (; p < k; ++p) {
        const double vp = v[p * vs];
        const double* line = mat + x0 * mx + p * mp;
        for (int64_t x = 0; x < count; ++x) acc[x] += vp * line[x * mx];
      }
      for (int64_t x = 0; x < count; ++x) finish(x0 + x, acc[x]);
    }
  });
}

}  // namespace

void dgemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
           int64_t lda, const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == 0.0) {
    scale_c(m, n, beta, c, ldc);
    return;
  }
  if (n == 1) {  // op(A) @ a column: line i is row i of op(A)
    thin_product(m, k, a, transa ? 1 : lda, transa ? lda : 1, b, transb ? 1 : ldb, alpha, beta, c,
                 ldc);
    return;
  }
  if (m == 1) {  // a row @ op(B): line j is column j of op(B)
    thin_product(n, k, b, transb ? ldb : 1, transb ? 1 : ldb, a, transa ? lda : 1, alpha, beta, c,
                 1);
    return;
  }
  const cpu::VecKernels& kernels = cpu::vec_kernels();
  const int64_t rows = kernels.gemm_f64_rows, cols = kernels.gemm_f64_cols;
  ST_CHECK(rows * cols <= kDgemmMaxTile, "dgemm: internal error: a ", rows, " x ", cols,
           " tile is larger than the edge buffer");
  const int64_t block_rows = rows * kDgemmBlockTiles;
  const int64_t row_blocks = (m + block_rows - 1) / block_rows;
  // The packs are sized for this product (a small one allocates little)
  // and left uninitialized: packing writes every element, padding too.
  const int64_t depth = std::min(kDgemmDepth, k);
  const int64_t b_size = depth * round_up(std::min(kDgemmWidth, n), cols);
  const int64_t a_size = depth * round_up(std::min(block_rows, m), rows);
  std::unique_ptr<double[]> b_pack(new double[static_cast<size_t>(b_size)]);
  for (int64_t j0 = 0; j0 < n; j0 += kDgemmWidth) {
    const int64_t nc = std::min(kDgemmWidth, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += kDgemmDepth) {
      const int64_t kc = std::min(kDgemmDepth, k - p0);
      // The first block of products scales C by beta; the later ones add.
      const double beta_here = p0 == 0 ? beta : 1.0;
      // op(B)[p0 + p, j0 + x]: column x is a line.
      pack_panels(transb ? b + j0 * ldb + p0 : b + p0 * ldb + j0, transb ? ldb : 1,
                  transb ? 1 : ldb, nc, kc, cols, b_pack.get());
      parallel_for(0, row_blocks, 1, [&](int64_t r0, int64_t r1) {
        std::unique_ptr<double[]> a_pack(new double[static_cast<size_t>(a_size)]);
        alignas(64) double edge[kDgemmMaxTile];
        for (int64_t rb = r0; rb < r1; ++rb) {
          const int64_t i0 = rb * block_rows;
          const int64_t mc = std::min(block_rows, m - i0);
          // op(A)[i0 + x, p0 + p]: row x is a line.
          pack_panels(transa ? a + p0 * lda + i0 : a + i0 * lda + p0, transa ? 1 : lda,
                      transa ? lda : 1, mc, kc, rows, a_pack.get());
          for (int64_t it = 0; it * rows < mc; ++it) {
            const double* ap = a_pack.get() + it * kc * rows;
            const int64_t i = i0 + it * rows, height = std::min(rows, mc - it * rows);
            for (int64_t jt = 0; jt * cols < nc; ++jt) {
              const double* bp = b_pack.get() + jt * kc * cols;
              const int64_t j = j0 + jt * cols, width = std::min(cols, nc - jt * cols);
              double* ct = c + i * ldc + j;
              if (height == rows && width == cols) {
                kernels.gemm_f64_tile(ct, ldc, ap, bp, kc, alpha, beta_here);
                continue;
              }
              // The same kernel on a copy of the valid part, so an edge
              // element rounds as any other.
              std::fill(edge, edge + rows * cols, 0.0);
              if (beta_here != 0.0) {
                for (int64_t r = 0; r < height; ++r)
                  std::copy(ct + r * ldc, ct + r * ldc + width, edge + r * cols);
              }
              kernels.gemm_f64_tile(edge, cols, ap, bp, kc, alpha, beta_here);
              for (int64_t r = 0; r < height; ++r)
                std::copy(edge + r * cols, edge + r * cols + width, ct + r * ldc);
            }
          }
        }
      });
    }
  }
}

}  // namespace st::native
