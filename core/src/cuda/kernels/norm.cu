// Vector norms of contiguous rows (linalg_vector_norm): one block per row,
// grid-stride over rows. The order p decides the per-element step and the
// combine: max/min of |x| for +-inf (NaN propagating, as the CPU's), a
// count for 0, sums of |x|, x^2 or |x|^p otherwise.
#include <cmath>

#include "block_reduce.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
struct NormOp {
  Acc p;
  bool inf;  // p is +-inf
  __device__ Acc init() const { return inf && p < Acc(0) ? Acc(INFINITY) : Acc(0); }
  __device__ Acc operator()(Acc a, Acc b) const {
    if (!inf) return a + b;
    if (a != a || b != b) return Acc(NAN);
    return p > Acc(0) ? (a > b ? a : b) : (a < b ? a : b);
  }
  // The contribution of one element |x| to the accumulator.
  __device__ Acc term(Acc x) const {
    if (inf) return x;
    if (p == Acc(0)) return x != Acc(0) ? Acc(1) : Acc(0);
    if (p == Acc(1)) return x;
    if (p == Acc(2)) return x * x;
    return pow(x, p);
  }
  __device__ Acc finish(Acc a) const {
    if (inf || p == Acc(0) || p == Acc(1)) return a;
    return p == Acc(2) ? sqrt(a) : pow(a, Acc(1) / p);
  }
};

template <typename Acc>
__global__ void norm_rows_kernel(NormOp<Acc> op, const void* in, int32_t in_dtype, void* out,
                                 int32_t out_dtype, int64_t rows, int64_t row_len) {
  __shared__ Acc scratch[kThreads];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = row * row_len;
    Acc acc = op.init();
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
      acc = op(acc, op.term(fabs(load<Acc>(in, in_dtype, base + j))));
    }
    acc = block_reduce<Acc>(acc, scratch, op);
    if (threadIdx.x == 0) store<Acc>(out, out_dtype, row, op.finish(acc));
  }
}

template <typename Acc>
cudaError_t launch(double p, const void* in, int32_t in_dtype, void* out, int32_t out_dtype,
                   int64_t rows, int64_t row_len, cudaStream_t stream) {
  const NormOp<Acc> op{static_cast<Acc>(p), std::isinf(p)};
  norm_rows_kernel<Acc>
      <<<row_blocks(rows), kThreads, 0, stream>>>(op, in, in_dtype, out, out_dtype, rows, row_len);
  return cudaGetLastError();
}

}  // namespace

cudaError_t norm_rows(Compute compute, double p, const void* in, int32_t in_dtype, void* out,
                      int32_t out_dtype, int64_t rows, int64_t row_len, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  if (compute == Compute::Double) {
    return launch<double>(p, in, in_dtype, out, out_dtype, rows, row_len, stream);
  }
  return launch<float>(p, in, in_dtype, out, out_dtype, rows, row_len, stream);
}

}  // namespace st::cuda::kernels
