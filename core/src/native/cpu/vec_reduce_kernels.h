// Internal: the reduction engine's vectorized inner loops (reduction.h),
// compiled once per instruction set from one source
// (vec_reduce_kernels_impl.inc), like the elementwise loops of
// vec_kernels.h, and chosen with them: the table has the ISA of
// vec_kernels().
//
// Two shapes, for the two ways a reduction walks memory:
//   - a contiguous run reduced to one value (the reduced dim is the inner
//     one): several independent vector accumulators, combined at the end;
//   - rows folded into side-by-side accumulators (the reduced dim is an
//     outer one: acc[j] = op(acc[j], x[j]) row after row, vectorized
//     across outputs).
//
// Semantics shared by every variant:
//   - floats accumulate sums, products and squares in double lanes (the
//     engine's accumulation type for floating inputs); the float sum of
//     vec_kernels.h adds 16 floats per lane before widening;
//   - int64 sums and products wrap (two's complement), as PyTorch's do;
//   - max/min propagate NaN: the result is NaN when any element is; an
//     empty run gives the identity (-inf/+inf, lowest/highest int64).
// The variants compute bit-identical sums and products (same 64-byte lane
// layout, same order, no FMA contraction); max/min are exact in every
// variant, which may differ only in returning +0 or -0 for a tie of zeros,
// or in which NaN they return.
//
// Thread-safety: the table is selected once and read-only afterwards.
#pragma once

#include <cstdint>

namespace st::native::cpu {

// The int64 elements sum_i64 and prod_i64 take per step (four 64-byte
// groups of lanes); a shorter run is only their scalar tail.
inline constexpr int64_t kIntRunGroup = 32;
// The rows of one float group of rows_add_f32.
inline constexpr int64_t kSumRowsGroup = 16;

struct VecReduceKernels {
  const char* isa;  // "default", "avx2", "avx512", "avx512_256"

  // ---- a contiguous run x[0..n) to one value ----
  uint64_t (*sum_i64)(const int64_t* x, int64_t n);  // wraps
  double (*prod_f32)(const float* x, int64_t n);
  // out[r] = prod_f32(x[r], n) for r < count, bit for bit: the rows of a
  // product over the last dim in one call.
  void (*prod_f32_runs)(double* out, const float* const* x, int64_t count, int64_t n);
  double (*prod_f64)(const double* x, int64_t n);
  uint64_t (*prod_i64)(const int64_t* x, int64_t n);  // wraps
  // out[r] = the max or min of x[r][0..n) for r < count: the rows of a
  // reduction over the last dim in one call (one run is count 1,
  // one_run()). A row's value does not depend on count.
  void (*max_f32)(float* out, const float* const* x, int64_t count, int64_t n);
  void (*min_f32)(float* out, const float* const* x, int64_t count, int64_t n);
  void (*max_f64)(double* out, const double* const* x, int64_t count, int64_t n);
  void (*min_f64)(double* out, const double* const* x, int64_t count, int64_t n);
  void (*max_i64)(int64_t* out, const int64_t* const* x, int64_t count, int64_t n);
  void (*min_i64)(int64_t* out, const int64_t* const* x, int64_t count, int64_t n);
  // sum of |x| and of x * x (vector norms of order 1 and 2)
  double (*sum_abs_f32)(const float* x, int64_t n);
  double (*sum_abs_f64)(const double* x, int64_t n);
  double (*sum_sq_f32)(const float* x, int64_t n);
  double (*sum_sq_f64)(const double* x, int64_t n);
  // sum of (x - c)^2 (the second pass of a two-pass variance)
  double (*sum_sqdev_f64)(const double* x, int64_t n, double c);
  // sum of x - c, returned, and of (x - c)^2, into *sq, in one pass (a
  // variance shifted by c)
  double (*sum_dev_f32)(const float* x, int64_t n, double c, double* sq);

  // ---- rows folded into acc[0..n) ----
  // acc[j] = op(...op(op(acc[j], x[j]), x[stride + j])..., x[(rows - 1) *
  // stride + j]) for j < n: each accumulator folds the rows in order, so
  // one call over many rows gives the bits of one call per row. But
  // rows_add_f32: the rows in groups of kSumRowsGroup from the call's
  // first row (the last group may be shorter), each output's group summed
  // in float in row order, ((x[0] + x[1]) + ...), then added to acc[j] in
  // double. One call gives the bits of calls over whole groups. The
  // accuracy is that of sum_f32's float lanes (16 values each, block sums
  // in double), for a fraction of the conversions: the whole rows in
  // double took 103 us over dim 1 of [16, 1024, 64] floats, PyTorch 70.
  void (*rows_add_f32)(double* acc, const float* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_add_f64)(double* acc, const double* x, int64_t n, int64_t rows, int64_t stride);
  // int64 sums and products wrap
  void (*rows_add_i64)(int64_t* acc, const int64_t* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_mul_f32)(double* acc, const float* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_mul_f64)(double* acc, const double* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_mul_i64)(int64_t* acc, const int64_t* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_max_f32)(float* acc, const float* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_min_f32)(float* acc, const float* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_max_f64)(double* acc, const double* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_min_f64)(double* acc, const double* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_max_i64)(int64_t* acc, const int64_t* x, int64_t n, int64_t rows, int64_t stride);
  void (*rows_min_i64)(int64_t* acc, const int64_t* x, int64_t n, int64_t rows, int64_t stride);

  // ---- rows folded into value-and-index accumulators (max.dim, argmax) ----
  // For j < n and r = 0 .. rows - 1 in order: when x[r * stride + j] is
  // better than val[j] (greater for max, less for min), or is NaN while
  // val[j] is not, val[j] = x[r * stride + j] and idx[j] = first + r. A tie
  // keeps the earlier index and the first NaN stays: PyTorch's first
  // occurrence. val[j] holds an element already (an empty accumulator is
  // seeded with its first row's), and idx[j] is left as it was where no row
  // replaces val[j]. The same bits in every variant.
  void (*rows_argmax_f32)(float* val, int64_t* idx, const float* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);
  void (*rows_argmin_f32)(float* val, int64_t* idx, const float* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);
  void (*rows_argmax_f64)(double* val, int64_t* idx, const double* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);
  void (*rows_argmin_f64)(double* val, int64_t* idx, const double* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);
  void (*rows_argmax_i64)(int64_t* val, int64_t* idx, const int64_t* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);
  void (*rows_argmin_i64)(int64_t* val, int64_t* idx, const int64_t* x, int64_t n, int64_t rows,
                          int64_t stride, int64_t first);

  // ---- out[j] = x[2j] for j < n (a stride-2 stretch packed for a run) ----
  // Reads only x[0 .. 2n - 1).
  void (*gather2_32)(uint32_t* out, const uint32_t* x, int64_t n);
  void (*gather2_64)(uint64_t* out, const uint64_t* x, int64_t n);

  // ---- x[2j] = in[j] for j < n (a packed block written to a stride-2 stretch) ----
  // Writes only the even elements x[0], x[2], ..., x[2n - 2].
  void (*scatter2_32)(uint32_t* x, const uint32_t* in, int64_t n);
  void (*scatter2_64)(uint64_t* x, const uint64_t* in, int64_t n);
  // Whether those write by vector stores (masked to the even elements)
  // rather than item by item: a few stores per block, so a strided output
  // can take larger blocks (detail::strided_out_block).
  bool scatter2_by_vectors;

  // ---- sum(x[j] * y[j]) over two contiguous runs of n ----
  // Floats: products rounded to float, summed in float lanes by blocks of
  // 256 that are widened into double lanes (sum_f32's scheme); doubles:
  // double lanes. The same value in every variant.
  double (*dot_f32)(const float* x, const float* y, int64_t n);
  double (*dot_f64)(const double* x, const double* y, int64_t n);

  // ---- running sums: out[j] = carry + x[0] + ... + x[j] for j < n ----
  // Wraps (two's complement), so every variant gives the same values.
  // Returns the sum after x[n - 1] (carry when n is 0). out may be x: each
  // vector of x is read before its place in out is written.
  uint64_t (*scan_add_i64)(int64_t* out, const int64_t* x, int64_t n, uint64_t carry);
};

// One run x[0..n) through a table entry that takes rows (max_f32, ...).
template <typename T>
inline T one_run(void (*rows)(T*, const T* const*, int64_t, int64_t), const T* x, int64_t n) {
  T r;
  rows(&r, &x, 1, n);
  return r;
}

// The table of the ISA vec_kernels() runs (ST_CPU_CAPABILITY applies).
const VecReduceKernels& vec_reduce_kernels();
// A given variant, or nullptr when the CPU lacks it (tests).
const VecReduceKernels* vec_reduce_kernels_for(const char* isa);

// The per-ISA tables (defined in vec_reduce_kernels_<isa>.cpp).
const VecReduceKernels& vec_reduce_kernels_default();
const VecReduceKernels& vec_reduce_kernels_avx2();
const VecReduceKernels& vec_reduce_kernels_avx512();
// Mostly the avx512 table's loops (vec_reduce_kernels_impl.inc).
const VecReduceKernels& vec_reduce_kernels_avx512_256();

}  // namespace st::native::cpu
