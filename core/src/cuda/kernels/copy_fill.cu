// copy (strided, with dtype conversion), fill and arange.
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__global__ void copy_kernel(Shape shape, Operand dst, Operand src, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc v = load<Acc>(src.data, src.dtype, offset_of(shape, src, i));
    store<Acc>(dst.data, dst.dtype, offset_of(shape, dst, i), v);
  }
}

template <typename Acc>
__global__ void fill_kernel(Shape shape, Operand dst, Acc value, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    store<Acc>(dst.data, dst.dtype, offset_of(shape, dst, i), value);
  }
}

__global__ void arange_kernel(void* out, int32_t dtype, double start, double step, int64_t n,
                              bool integral) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (integral) {
      store<int64_t>(out, dtype, i, static_cast<int64_t>(start + static_cast<double>(i) * step));
    } else {
      store<double>(out, dtype, i, start + static_cast<double>(i) * step);
    }
  }
}

bool host_is_integral(int32_t dtype) {
  return dtype == kByte || dtype == kChar || dtype == kShort || dtype == kInt || dtype == kLong ||
         dtype == kBool;
}

}  // namespace

cudaError_t copy(const Shape& shape, const Operand& dst, const Operand& src, int64_t numel,
                 cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  // Integers stay exact through int64; anything floating goes through
  // double (exact for every narrower type).
  if (host_is_integral(src.dtype) && host_is_integral(dst.dtype)) {
    copy_kernel<int64_t><<<blocks_for(numel), kThreads, 0, stream>>>(shape, dst, src, numel);
  } else if (src.dtype != kDouble && dst.dtype != kDouble && !host_is_integral(src.dtype)) {
    copy_kernel<float><<<blocks_for(numel), kThreads, 0, stream>>>(shape, dst, src, numel);
  } else {
    copy_kernel<double><<<blocks_for(numel), kThreads, 0, stream>>>(shape, dst, src, numel);
  }
  return cudaGetLastError();
}

cudaError_t fill(const Shape& shape, const Operand& dst, double fvalue, int64_t ivalue,
                 int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  if (host_is_integral(dst.dtype)) {
    fill_kernel<int64_t><<<blocks_for(numel), kThreads, 0, stream>>>(shape, dst, ivalue, numel);
  } else {
    fill_kernel<double><<<blocks_for(numel), kThreads, 0, stream>>>(shape, dst, fvalue, numel);
  }
  return cudaGetLastError();
}

cudaError_t arange(void* out, int32_t dtype, double start, double step, int64_t n,
                   cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  arange_kernel<<<blocks_for(n), kThreads, 0, stream>>>(out, dtype, start, step, n,
                                                        host_is_integral(dtype));
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
