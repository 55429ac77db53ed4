// The CUDA kernels' launch API (internal to the backend). Plain data only:
// the host side (core/src/cuda/*.cpp) turns tensors into a Shape and
// Operands, so nvcc never compiles the core's headers and each .cu stays
// small.
//
// Note [CUDA kernels load and store by run-time dtype]
// A kernel reads each operand through a switch on its dtype (uniform across
// a launch, so the branch costs little) into a compute type: float for
// half, bfloat16 and float; double for double; int64 for integers and bool.
// One instantiation per compute type serves every dtype combination, which
// keeps compile times and binary size small; dtype conversion comes free.
// Contiguous same-dtype copies never launch a kernel (cudaMemcpyAsync).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace st::cuda::kernels {

constexpr int kMaxDims = 12;

// c10 ScalarType ordinals of the dtypes the kernels handle.
enum Dtype : int32_t {
  kByte = 0,
  kChar = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kHalf = 5,
  kFloat = 6,
  kDouble = 7,
  kBool = 11,
  kBFloat16 = 15,
};

// The iteration shape. ndim 0 is one element.
struct Shape {
  int32_t ndim = 0;
  int64_t sizes[kMaxDims] = {};
};

// One operand: data (at its storage offset), dtype and element strides in
// the iteration shape (0 for broadcast dimensions).
struct Operand {
  void* data = nullptr;
  int32_t dtype = kFloat;
  int64_t strides[kMaxDims] = {};
};

// Which compute type an operation on `dtype` uses (Note [CUDA kernels load
// and store by run-time dtype]).
enum class Compute : int32_t { Float, Double, Int };

// Every launch is asynchronous on `stream` and returns the launch error.
cudaError_t copy(const Shape& shape, const Operand& dst, const Operand& src, int64_t numel,
                 cudaStream_t stream);
// Writes `fvalue` (floating dtypes) or `ivalue` (integral dtypes and bool).
cudaError_t fill(const Shape& shape, const Operand& dst, double fvalue, int64_t ivalue,
                 int64_t numel, cudaStream_t stream);
// out[i] = start + i * step, contiguous.
cudaError_t arange(void* out, int32_t dtype, double start, double step, int64_t n,
                   cudaStream_t stream);

// nan_to_num: out = in with NaN, +inf and -inf replaced by `nan`, `posinf`
// and `neginf` (integers unchanged).
cudaError_t nan_to_num(Compute compute, const Shape& shape, const Operand& out, const Operand& in,
                       double nan, double posinf, double neginf, int64_t numel,
                       cudaStream_t stream);

// Note [CUDA pointwise entry points]
// Each pointwise op is one device functor and one entry point of a plain
// signature (FloatUnaryEntry, UnaryEntry, BinaryEntry, TernaryEntry,
// below), defined together by its launcher's macro in the .cu named after
// the launcher (ST_CUDA_FLOAT_UNARY in float_unary.cuh, ST_CUDA_UNARY_BOOL
// and its siblings in unary.cuh, ST_CUDA_BINARY_COMPARE and its siblings
// in binary.cuh, ST_CUDA_TERNARY in ternary.cuh), so no enum or switch
// lists the ops. The launcher's host side (st::cuda::ops::<launcher>,
// cuda_pointwise.cpp) holds the rules its ops share: promotion, refused
// dtypes, result dtype. For an entry with `cuda_pointwise: <launcher>`
// codegen declares the entry point and writes the host-side kernels (Note
// [CUDA kernels in native_functions.yaml] in tools/codegen/gen_native.py):
// adding such an op touches its YAML entries and one line of a .cu. The
// schemas no generated form serves (div's rounding modes, pow's Scalar
// forms, gelu's approximation, where, clamp, masked_fill_) have hand-written
// host kernels that call the same launchers with their entry points.
//
// float_unary_<op>: out = f(in) in `compute` (Float or Double; the host
// computes integer inputs in the default float dtype).
using FloatUnaryEntry = cudaError_t(Compute compute, const Shape& shape, const Operand& out,
                                    const Operand& in, int64_t numel, cudaStream_t stream);

// <unary launcher>_<op> (unary_neg, unary_bool_isnan, ...; the launchers
// of unary.cuh): out = f(in) in `compute`.
using UnaryEntry = cudaError_t(Compute compute, const Shape& shape, const Operand& out,
                               const Operand& in, int64_t numel, cudaStream_t stream);

// <binary launcher>_<op> (binary_mul, binary_compare_eq, ...; the
// launchers of binary.cuh): out = a op b in `compute`. alpha: the scale of
// b for the binary_alpha ops (add, sub), ignored by the others. Integer
// division and remainder by zero (binary_divmod) store 0 and set
// *zero_division to 1 when it is not null (a kernel cannot throw; the host
// reads the flag and raises the CPU's error).
using BinaryEntry = cudaError_t(Compute compute, const Shape& shape, const Operand& out,
                                const Operand& a, const Operand& b, double alpha,
                                int32_t* zero_division, int64_t numel, cudaStream_t stream);

// ternary_<op> (ternary_where, ternary_clamp; ternary.cuh): out = f(a, b, c)
// in `compute`. Their host kernels are hand-written (cuda_pointwise.cpp).
using TernaryEntry = cudaError_t(Compute compute, const Shape& shape, const Operand& out,
                                 const Operand& a, const Operand& b, const Operand& c,
                                 int64_t numel, cudaStream_t stream);

enum class Reduce : int32_t { Sum, Mean, Amax, Amin, Prod, All, Any };
// Reduces `rows` contiguous rows of `row_len` elements of `in` (dtype
// in_dtype) into out[row] (dtype out_dtype), accumulating in `compute`.
cudaError_t reduce_rows(Reduce op, Compute compute, const void* in, int32_t in_dtype, void* out,
                        int32_t out_dtype, int64_t rows, int64_t row_len, cudaStream_t stream);
// The largest (is_max) or smallest element of each row and its index (the
// first one on ties; NaN counts as the extreme, as the CPU's): values (may
// be null) of values_dtype, indices int64. row_len > 0.
cudaError_t arg_reduce_rows(bool is_max, Compute compute, const void* in, int32_t in_dtype,
                            void* values, int32_t values_dtype, int64_t* indices, int64_t rows,
                            int64_t row_len, cudaStream_t stream);

// Uniform in [a, b) or normal(mean a, std b) from Philox4x32-10 with `seed`,
// starting at counter `offset` (one counter per 4 values), contiguous.
cudaError_t random(bool normal, void* out, int32_t dtype, int64_t n, uint64_t seed, uint64_t offset,
                   double a, double b, cudaStream_t stream);

// out = self.index_select(dim, index) for contiguous out and self of
// `element_size`-byte elements: self viewed as [outer, self_dim, inner],
// out as [outer, nindex, inner]. index: device int64 (checked in range on
// the host first).
cudaError_t index_select(void* out, const void* self, const int64_t* index, int64_t nindex,
                         int64_t outer, int64_t self_dim, int64_t inner, int32_t element_size,
                         cudaStream_t stream);

// ---- norms, dot, softmax, cumsum, flip, gather/scatter -------------

// The vector p-norm of each of `rows` contiguous rows of `row_len` elements
// (p: +-inf for max/min of |x|, 0 for the count of non-zeros, otherwise
// (sum |x|^p)^(1/p)), accumulated in `compute` (Float or Double) and
// stored as out_dtype. row_len 0 gives the identity (0, or +inf for -inf;
// the host refuses the orders without one).
cudaError_t norm_rows(Compute compute, double p, const void* in, int32_t in_dtype, void* out,
                      int32_t out_dtype, int64_t rows, int64_t row_len, cudaStream_t stream);

// sum(a[i * stride_a] * b[i * stride_b]) for i < n into out[0] (dtype
// `dtype`, the dtype of a and b too), accumulated in `compute` (integers
// wrap at 64 bits, so the stored value wraps as the CPU's). `partials`
// is device scratch of dot_partials() 8-byte words.
int64_t dot_partials(int64_t n);
cudaError_t dot(Compute compute, const void* a, int64_t stride_a, const void* b, int64_t stride_b,
                int32_t dtype, void* out, int64_t n, void* partials, cudaStream_t stream);

// Softmax (log_softmax when `log`) of contiguous x viewed as [outer, n,
// inner] along the middle dimension into contiguous y, in `compute` (Float
// or Double); each line is shifted by its maximum first.
cudaError_t softmax(bool log, Compute compute, const void* x, int32_t x_dtype, void* y,
                    int32_t y_dtype, int64_t outer, int64_t n, int64_t inner, cudaStream_t stream);

// Inclusive prefix sums of contiguous x viewed as [outer, n, inner] along
// the middle dimension into contiguous y (x and y of `dtype`), accumulated
// in double for floating dtypes and wrapping int64 for the others.
cudaError_t cumsum(const void* x, void* y, int32_t dtype, int64_t outer, int64_t n, int64_t inner,
                   cudaStream_t stream);

// out (contiguous, `shape`) = src with the dimensions whose bit is set in
// `flip_mask` reversed; src given by its element strides. Moves raw
// elements of `element_size` bytes.
cudaError_t flip(const Shape& shape, const Operand& src, uint32_t flip_mask, void* out,
                 int32_t element_size, int64_t numel, cudaStream_t stream);

// Over the index's iteration `shape` (negative values count from the end
// of `dim`; a value out of range moves nothing and sets *out_of_range to
// 1, which the host reads to raise the CPU's error):
//   gather:  out[c] = self[c with c[dim] = index[c]]
//   scatter: self[c with c[dim] = index[c]] = src[c]  (or `value` when src
//            is null: `element_size` raw bytes)
// Operands carry element strides; `self.strides[dim]` is the stride along
// dim and `dim_size` its size.
cudaError_t gather(const Shape& shape, const Operand& out, const Operand& self,
                   const Operand& index, int32_t dim, int64_t dim_size, int32_t element_size,
                   int32_t* out_of_range, int64_t numel, cudaStream_t stream);
struct RawValue {
  uint64_t word[2] = {0, 0};
};
cudaError_t scatter(const Shape& shape, const Operand& self, const Operand& index,
                    const Operand* src, const RawValue& value, int32_t dim, int64_t dim_size,
                    int32_t element_size, int32_t* out_of_range, int64_t numel,
                    cudaStream_t stream);

// ---- results sized on the host: masked_select, nonzero; sort, topk ----------

// Scratch bytes select_positions() needs for n elements (the scan).
size_t select_scratch_bytes(int64_t n);
// positions[i] = the number of i' <= i whose element of contiguous `in`
// (dtype; NaN counts as nonzero) is nonzero; the inclusive scan of the
// flags, so positions[n - 1] is the count (the host reads it back).
cudaError_t select_positions(const void* in, int32_t dtype, int64_t* positions, int64_t n,
                             void* scratch, size_t scratch_bytes, cudaStream_t stream);
// Element i is selected when positions[i] exceeds positions[i - 1].
// masked_select: out[positions[i] - 1] = src[i] for the selected i
// (contiguous, raw elements of element_size bytes).
cudaError_t masked_compact(const void* src, const int64_t* positions, void* out,
                           int32_t element_size, int64_t n, cudaStream_t stream);
// nonzero: row positions[i] - 1 of out ([count, shape.ndim] int64) gets
// the coordinates of each selected i in `shape`.
cudaError_t nonzero_coords(const Shape& shape, const int64_t* positions, int64_t* out, int64_t n,
                           cudaStream_t stream);

// Scratch bytes sort_rows() needs for `rows` rows of n (rows * n < 2^31).
size_t sort_scratch_bytes(int64_t rows, int64_t n);
// Stable sort of each of `rows` contiguous rows of n elements of `in`
// (dtype), ascending or descending; NaN is above every number (last
// ascending, first descending), -0.0 equals 0.0, ties keep their order.
// Writes the first k of each sorted row: values (dtype, [rows, k]) and
// their indices in the row (int64, [rows, k]).
cudaError_t sort_rows(const void* in, int32_t dtype, int32_t element_size, int64_t rows, int64_t n,
                      int64_t k, bool descending, void* values, int64_t* indices, void* scratch,
                      size_t scratch_bytes, cudaStream_t stream);

// ---- index.Tensor ---------------------------------------------------------------

// The indexed dimensions of index.Tensor: `count` int64 index operands
// broadcast over the iteration shape, and the size and stride in self of
// the dimension each one indexes.
struct IndexArgs {
  int32_t count = 0;
  Operand index[kMaxDims];
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};
};
// base[b] = sum over j of index_j[b] * strides[j] (negative values count
// from the end) for the `bnum` positions of `shape`. A value outside
// [-size, size) contributes 0 and sets *out_of_range to 1 (the host reads
// the flag and raises the CPU's error).
cudaError_t index_offsets(const Shape& shape, const IndexArgs& args, int64_t* base,
                          int32_t* out_of_range, int64_t bnum, cudaStream_t stream);
// out[b * rnum + r] = self[base[b] + the offset of r in `rest`] (rest: the
// shape of the dimensions not indexed; self.strides their strides), raw
// elements of element_size bytes.
cudaError_t index_gather(const Shape& rest, const Operand& self, const int64_t* base, void* out,
                         int64_t bnum, int64_t rnum, int32_t element_size, cudaStream_t stream);

}  // namespace st::cuda::kernels
