// Row reductions: one block per output element reduces one contiguous row
// (the host moves the reduced dimensions last and makes them contiguous).
// One functor serves sum/mean/prod/amax/amin/all/any; max/min with indices
// have their own kernel (a value and an index per partial).
#include <cfloat>
#include <climits>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__device__ __forceinline__ Acc identity(Reduce op) {
  if (op == Reduce::Amax) return -INFINITY;
  if (op == Reduce::Amin) return INFINITY;
  if (op == Reduce::Prod || op == Reduce::All) return Acc(1);
  return Acc(0);
}
template <>
__device__ __forceinline__ int64_t identity<int64_t>(Reduce op) {
  if (op == Reduce::Amax) return LLONG_MIN;
  if (op == Reduce::Amin) return LLONG_MAX;
  if (op == Reduce::Prod || op == Reduce::All) return 1;
  return 0;
}

// NaN propagates through amax/amin, as PyTorch's.
template <typename Acc>
__device__ __forceinline__ Acc combine(Reduce op, Acc a, Acc b) {
  if (op == Reduce::Amax) return (a != a || a > b) ? a : b;
  if (op == Reduce::Amin) return (a != a || a < b) ? a : b;
  if (op == Reduce::Prod) return a * b;
  if (op == Reduce::All) return Acc(a != Acc(0) && b != Acc(0));
  if (op == Reduce::Any) return Acc(a != Acc(0) || b != Acc(0));
  return a + b;
}
// Integer sums and products wrap (through uint64, so overflow is defined).
template <>
__device__ __forceinline__ int64_t combine<int64_t>(Reduce op, int64_t a, int64_t b) {
  if (op == Reduce::Amax) return a > b ? a : b;
  if (op == Reduce::Amin) return a < b ? a : b;
  if (op == Reduce::Prod) return static_cast<int64_t>(uint64_t(a) * uint64_t(b));
  if (op == Reduce::All) return a != 0 && b != 0;
  if (op == Reduce::Any) return a != 0 || b != 0;
  return static_cast<int64_t>(uint64_t(a) + uint64_t(b));
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

// Whether (v, vi) beats the running (a, ai): NaN is the extreme, and ties
// go to the lower index so that the first occurrence wins however the
// partials combine. ai < 0 is "nothing yet".
template <typename Acc>
__device__ __forceinline__ bool arg_better(bool is_max, Acc v, int64_t vi, Acc a, int64_t ai) {
  if (vi < 0) return false;
  if (ai < 0) return true;
  const bool v_nan = v != v;
  const bool a_nan = a != a;
  if (a_nan || v_nan) return a_nan && v_nan ? vi < ai : v_nan;
  if (v == a) return vi < ai;
  return is_max ? v > a : v < a;
}

template <typename Acc>
__global__ void arg_reduce_rows_kernel(bool is_max, const void* in, int32_t in_dtype, void* values,
                                       int32_t values_dtype, int64_t* indices, int64_t row_len) {
  __shared__ Acc best[kThreads];
  __shared__ int64_t best_index[kThreads];
  const int64_t row = blockIdx.x;
  const int64_t base = row * row_len;
  Acc acc = Acc(0);
  int64_t acc_index = -1;
  for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
    const Acc v = load<Acc>(in, in_dtype, base + j);
    if (arg_better<Acc>(is_max, v, j, acc, acc_index)) {
      acc = v;
      acc_index = j;
    }
  }
  best[threadIdx.x] = acc;
  best_index[threadIdx.x] = acc_index;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      const unsigned int o = threadIdx.x + s;
      if (arg_better<Acc>(is_max, best[o], best_index[o], best[threadIdx.x],
                          best_index[threadIdx.x])) {
        best[threadIdx.x] = best[o];
        best_index[threadIdx.x] = best_index[o];
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    if (values != nullptr) store<Acc>(values, values_dtype, row, best[0]);
    indices[row] = best_index[0] < 0 ? 0 : best_index[0];
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
      reduce_rows_kernel<float>
          <<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out, out_dtype, row_len);
      break;
    case Compute::Double:
      reduce_rows_kernel<double>
          <<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out, out_dtype, row_len);
      break;
    case Compute::Int:
      reduce_rows_kernel<int64_t>
          <<<blocks, kThreads, 0, stream>>>(op, in, in_dtype, out, out_dtype, row_len);
      break;
  }
  return cudaGetLastError();
}

cudaError_t arg_reduce_rows(bool is_max, Compute compute, const void* in, int32_t in_dtype,
                            void* values, int32_t values_dtype, int64_t* indices, int64_t rows,
                            int64_t row_len, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  if (rows > 2147483647) return cudaErrorInvalidConfiguration;
  const auto blocks = static_cast<unsigned int>(rows);
  switch (compute) {
    case Compute::Float:
      arg_reduce_rows_kernel<float><<<blocks, kThreads, 0, stream>>>(
          is_max, in, in_dtype, values, values_dtype, indices, row_len);
      break;
    case Compute::Double:
      arg_reduce_rows_kernel<double><<<blocks, kThreads, 0, stream>>>(
          is_max, in, in_dtype, values, values_dtype, indices, row_len);
      break;
    case Compute::Int:
      arg_reduce_rows_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(
          is_max, in, in_dtype, values, values_dtype, indices, row_len);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
