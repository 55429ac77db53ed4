// Internal: the hot inner loops of the elementwise and reduction engines,
// compiled once per instruction set (baseline x86-64, AVX2+FMA, AVX-512,
// and AVX-512 on 32-byte vectors: avx512_256, vec_width.inc) from one
// source (vec_kernels_impl.inc) and chosen once at run time from the
// CPU's features (avx512_256 where AVX-512 runs on 256-bit units). Never
// -march=native: each variant is its own translation unit with its own
// target flags, and only the table selected for this CPU is ever called.
//
// The variants compute bit-identical results: the elementwise loops have
// no dependence between lanes, the sums keep one 64-byte lane layout in
// every variant (only the registers used differ), and FMA contraction is
// off.
//
// Thread-safety: the table is selected once (a function-local static) and
// read-only afterwards.
#pragma once

#include <cstdint>

namespace st::native::cpu {

// The block lengths of VecKernels::sum_f32 and sum_f64 (the same on every
// ISA, so the variants agree bit for bit).
inline constexpr int64_t kSumF32Block = 256;
// The floats of one group of sum_f32's 16 float lanes: a run shorter than
// this is added element by element.
inline constexpr int64_t kSumF32Group = 16;
inline constexpr int64_t kSumF64Block = 32;

struct VecKernels {
  const char* isa;  // "default", "avx2", "avx512", "avx512_256"
  // out[i] = a[i] + alpha * b[i] (b_scalar: b[0] for every i). stream:
  // write with non-temporal stores (outputs far larger than the caches:
  // no read-for-ownership of out, no eviction of the inputs).
  void (*add_f32)(float* out, const float* a, const float* b, float alpha, int64_t n, bool b_scalar,
                  bool stream);
  void (*add_f64)(double* out, const double* a, const double* b, double alpha, int64_t n,
                  bool b_scalar, bool stream);
  // out[i] = a[i] * b[i] (b_scalar: b[0])
  void (*mul_f32)(float* out, const float* a, const float* b, int64_t n, bool b_scalar,
                  bool stream);
  void (*mul_f64)(double* out, const double* a, const double* b, int64_t n, bool b_scalar,
                  bool stream);
  // The sum of x[0..n): doubles accumulate in double lanes; floats in
  // float lanes over blocks of kSumF32Block (16 values per lane), each
  // block's lane sums then added in double lanes, and the whole groups of
  // kSumF32Group after the last block in one more set of float lanes. The
  // elements after those (the last n % 16 floats, or the doubles after
  // the last whole block of kSumF64Block) are added one by one, in order:
  // a run of fewer than 16 floats or 32 doubles sums as ((0.0 + x[0]) +
  // x[1]) + ... in double. (The order, exactly: tests/core/native/cpu/
  // test_vec_kernels.cpp, model_sum_f32.)
  double (*sum_f32)(const float* x, int64_t n);
  double (*sum_f64)(const double* x, int64_t n);
  // out[r] = sum_f32(x[r], n) for r < count, bit for bit: the rows of a
  // sum over the last dim in one call.
  void (*sum_f32_runs)(double* out, const float* const* x, int64_t count, int64_t n);
  // Philox4x32-10 (st::philox4x32_10) for `blocks` consecutive counters:
  // out[4 j .. 4 j + 3] is the block of counter + j (wrapping at 2^64),
  // the counter's low and high words in the first two counter words, the
  // key's in the key words; the same words the scalar function gives. out
  // needs no alignment.
  void (*philox4x32_10)(uint32_t* out, uint64_t counter, uint64_t key, int64_t blocks);
  // out[i] = 1 where a[i] OP b[i], else 0, for the comparisons in
  // CompareOp order (an in-place or out= comparison with an int64 output).
  // Integer results, so the variants agree whatever their vector width
  // (these loops use the ISA's register width).
  void (*compare_i64[6])(int64_t* out, const int64_t* a, const int64_t* b, int64_t n);
  // out[i] = a[i] OP b[i] for the operators in BitwiseOp order, with
  // PyTorch's shifts: a count outside [0, 64) gives 0 (left shift) or the
  // sign fill (right shift: -1 for a negative a, else 0); the left shift
  // wraps (two's complement).
  void (*bitwise_i64[5])(int64_t* out, const int64_t* a, const int64_t* b, int64_t n);
  // And, or, xor of bytes (uint8, and bool: bytes 0 or 1 stay 0 or 1).
  void (*bitwise_u8[3])(uint8_t* out, const uint8_t* a, const uint8_t* b, int64_t n);
  // out[i] = ~a[i]
  void (*bitwise_not_i64)(int64_t* out, const int64_t* a, int64_t n);
  // The logical operators in LogicalOp order on the operands' truth (a
  // value is true when it is not zero; NaN is true): out[i] = 1 or 0,
  // written as bool bytes (_b8) or in the inputs' dtype (1.0f, 1).
  void (*logical_f32_b8[3])(bool* out, const float* a, const float* b, int64_t n);
  void (*logical_f32[3])(float* out, const float* a, const float* b, int64_t n);
  void (*logical_i64_b8[3])(bool* out, const int64_t* a, const int64_t* b, int64_t n);
  void (*logical_i64[3])(int64_t* out, const int64_t* a, const int64_t* b, int64_t n);
  // out[i] = 1 where a[i] is zero, else 0 (logical_not), likewise.
  void (*logical_not_f32_b8)(bool* out, const float* a, int64_t n);
  void (*logical_not_f32)(float* out, const float* a, int64_t n);
  void (*logical_not_i64_b8)(bool* out, const int64_t* a, int64_t n);
  void (*logical_not_i64)(int64_t* out, const int64_t* a, int64_t n);
  // out[i] = OP(a[i]) for the operators in SimpleUnaryOp order, with
  // PyTorch's CPU semantics; out may be a. float32: neg flips and abs
  // clears the sign bit (NaN payloads kept, -0.0 <-> 0.0); relu is +0.0
  // where a[i] < 0, else a[i] (NaN and -0.0 kept, as PyTorch's max(x, 0)
  // gives); sign is 1, -1, or +0.0 for zeros and NaN. int64: neg and abs
  // wrap (INT64_MIN stays INT64_MIN).
  void (*simple_unary_f32[4])(float* out, const float* a, int64_t n);
  void (*simple_unary_i64[4])(int64_t* out, const int64_t* a, int64_t n);
  // out[i] = the larger ([0], maximum) or the smaller ([1], minimum) of
  // a[i] and b[i]; out may be a or b.
  void (*maxmin_i64[2])(int64_t* out, const int64_t* a, const int64_t* b, int64_t n);
  // out[i] = a[i] to the power b[i], wrapping as PyTorch's integer pow: by
  // squaring and multiplying for b[i] >= 0; for b[i] < 0, 1 for a[i] = 1,
  // 1 or -1 by b[i]'s parity for a[i] = -1, else 0. out may be a or b.
  void (*pow_i64)(int64_t* out, const int64_t* a, const int64_t* b, int64_t n);
  // out[i] = a[i] OP b[i] as bool bytes (1 or 0), for the comparisons in
  // CompareOp order (a comparison's Bool result). Floats compare as in C++
  // and PyTorch: a NaN operand makes ne true and the others false; -0.0
  // equals +0.0.
  void (*compare_f32_b8[6])(bool* out, const float* a, const float* b, int64_t n);
  void (*compare_i64_b8[6])(bool* out, const int64_t* a, const int64_t* b, int64_t n);
  // fill_bits[k]: n elements of 2^k bytes (1 to 16) at out, each a copy of
  // the 2^k bytes at value.
  void (*fill_bits[5])(void* out, const void* value, int64_t n);
  // Copies `bytes` bytes from in to out, which do not overlap: by vector
  // loads and stores below 1 MiB, by memcpy from there. For the rows of a
  // copy, a cat or an index_select, runs of bytes to KiB: glibc's memcpy
  // moves those from 4 KiB on with `rep movsb`, whose start-up cost a row
  // pays every time (a broadcast row copied into 1024 rows on the Zen 4:
  // 57 us by memcpy, 44 by vectors; no size from 256 bytes to 1 MiB was
  // faster by memcpy).
  void (*copy_bytes)(void* out, const void* in, int64_t bytes);
  // copy_bytes(out + r * out_stride, in + r * in_stride, bytes) for r <
  // rows (strides in bytes; no row overlaps another's destination or any
  // source): the rows of a cat, in one call however short they are.
  void (*copy_rows)(void* out, int64_t out_stride, const void* in, int64_t in_stride, int64_t bytes,
                    int64_t rows);
  // The int64 GEMM's block update, wrapping (two's complement):
  // acc[r * ldc + j] += sum over p < k of a[r * a_row + p * a_step] *
  // b[p * ldb + j], for r < rows and j < n. A block of C stays in
  // registers over the k products; AVX-512DQ multiplies 64-bit lanes in
  // one instruction (vpmullq), baseline and AVX2 code in three 32-bit
  // products.
  void (*gemm_i64)(int64_t* acc, int64_t ldc, const int64_t* a, int64_t a_row, int64_t a_step,
                   const int64_t* b, int64_t ldb, int64_t rows, int64_t k, int64_t n);
  // A small float product on row-major blocks, as BLAS's sgemm:
  // c[i * ldc + j] = alpha * S(i, j) + beta * c[i * ldc + j] for i < m,
  // j < n, where S(i, j) sums a[i * a_row + p * a_step] * b[p * ldb + j]
  // from zero in increasing p with fused multiply-adds (a product and an
  // add, each rounded, in baseline code). With beta == 0, c is written
  // without being read. Blocks of C stay in registers over all k products.
  void (*gemm_f32)(float* c, int64_t ldc, const float* a, int64_t a_row, int64_t a_step,
                   const float* b, int64_t ldb, int64_t m, int64_t k, int64_t n, float alpha,
                   float beta);
  // The double GEMM's register tile (dgemm.cpp packs the panels): a tile
  // of gemm_f64_rows x gemm_f64_cols doubles of C from a packed column
  // panel of A (a[p * gemm_f64_rows + r]) and a packed row panel of B
  // (b[p * gemm_f64_cols + j]), p < k: c[r * ldc + j] = alpha * S(r, j) +
  // beta * c[r * ldc + j], where S sums the products from zero in
  // increasing p with fused multiply-adds (a product and an add, each
  // rounded, in baseline code). With beta == 0, c is written without being
  // read. The tile's shape fills the registers of the ISA; an element's
  // result does not depend on it, so the AVX2 and AVX-512 variants agree
  // bit for bit.
  int64_t gemm_f64_rows;
  int64_t gemm_f64_cols;
  void (*gemm_f64_tile)(double* c, int64_t ldc, const double* a, const double* b, int64_t k,
                        double alpha, double beta);
};

// The comparisons of VecKernels::compare_i64, in table order.
enum class CompareOp : int { Eq, Ne, Lt, Le, Gt, Ge };
// The operators of VecKernels::bitwise_i64 and bitwise_u8, in table order.
enum class BitwiseOp : int { And, Or, Xor, Lshift, Rshift };
// The operators of VecKernels::logical_*, in table order.
enum class LogicalOp : int { And, Or, Xor };
// The operators of VecKernels::simple_unary_*, in table order.
enum class SimpleUnaryOp : int { Neg, Abs, Relu, Sign };

// The table for this CPU (best supported ISA, or the one named by the
// environment variable ST_CPU_CAPABILITY = default | avx2 | avx512 |
// avx512_256 when the CPU supports it).
const VecKernels& vec_kernels();
// A given variant, or nullptr when the CPU lacks it (for tests that check
// that the variants agree).
const VecKernels* vec_kernels_for(const char* isa);

// The per-ISA tables (defined in vec_kernels_<isa>.cpp).
const VecKernels& vec_kernels_default();
const VecKernels& vec_kernels_avx2();
const VecKernels& vec_kernels_avx512();
const VecKernels& vec_kernels_avx512_256();

}  // namespace st::native::cpu
