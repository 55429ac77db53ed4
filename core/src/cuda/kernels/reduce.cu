// Row reductions: one block per output element reduces one contiguous row
// (the host moves the reduced dimensions last and makes them contiguous).
#include <cfloat>
#include <climits>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__device__ __forceinline__ Acc identity(Reduce op) {
  if (op == Reduce::Amax) return -INFINITY;
  if (op == Reduce::Amin) return INFINITY;
  return Acc(0);
}
template <>
__device__ __forceinline__ int64_t identity<int64_t>(Reduce op) {
  if (op == Reduce::Amax) return LLONG_MIN;
  if (op == Reduce::Amin) return LLONG_MAX;
  return 0;
}

// NaN propagates through amax/amin, as PyTorch's.
template <typename Acc>
__device__ __forceinline__ Acc combine(Reduce op, Acc a, Acc b) {
  if (op == Reduce::Amax) return (a != a || a > b) ? a : b;
  if (op == Reduce::Amin) return (a != a || a < b) ? a : b;
  return a + b;
}

template <typename Acc>
__global__ void reduce_rows_kernel(Reduce op, const void* in, int32_t in_dtype, void* out,
                                   int32_t out_dtype, int64_t row_len) {
  __shared__ Acc partial[kThreads];
  const int64_t row = blockIdx.x;
  const int64_t base = row * row_len;
  Acc acc = identity<Acc>(op);
  for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
    acc = combine<Acc>(op, acc, load<Acc>(in, in_dtype, base + j));
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      partial[threadIdx.x] = combine<Acc>(op, partial[threadIdx.x], partial[threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Acc r = partial[0];
    if (op == Reduce::Mean) r = r / static_cast<Acc>(row_len);
    store<Acc>(out, out_dtype, row, r);
  }
}

}  // namespace

cudaError_t reduce_rows(Reduce op, Compute compute, const void* in, int32_t in_dtype, void* out,
                        int32_t out_dtype, int64_t rows, int64_t row_len, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  // Rows beyond the grid's x limit are not expected from tensors this core
  // can allocate on one device, but refuse them rather than skip them.
  if (rows > 2147483647) return cudaErrorInvalidConfiguration;
  const auto blocks = static_cast<unsigned int>(rows);
  switch (compute) {
    case Compute::Float:
      reduce_rows_kernel<float><<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out, out_dtype,
                                                                 row_len);
      break;
    case Compute::Double:
      reduce_rows_kernel<double><<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out,
                                                                  out_dtype, row_len);
      break;
    case Compute::Int:
      reduce_rows_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out,
                                                                   out_dtype, row_len);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
