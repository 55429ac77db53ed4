// softmax / log_softmax along the middle dimension of [outer, n, inner].
// inner == 1 (the softmax dim is the last one): one block per line, the
// max and the sum are block reductions. inner > 1: one thread per (outer,
// inner) line, walking n with stride inner, so the threads of a warp read
// neighbouring elements. Each line is shifted by its maximum before exp,
// so large inputs do not overflow; a NaN anywhere in a line makes the sum
// NaN and with it the whole line, as on the CPU.
#include <cmath>

#include "block_reduce.cuh"

namespace st::cuda::kernels {
namespace {

// The CPU's std::max(acc, x): x replaces acc only when acc < x.
template <typename Acc>
struct Max {
  __device__ Acc operator()(Acc a, Acc b) const { return a < b ? b : a; }
};
template <typename Acc>
struct Plus {
  __device__ Acc operator()(Acc a, Acc b) const { return a + b; }
};

template <typename Acc>
__global__ void softmax_last_dim_kernel(bool log_out, const void* x, int32_t x_dtype, void* y,
                                        int32_t y_dtype, int64_t rows, int64_t n) {
  __shared__ Acc scratch[kThreads];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = row * n;
    Acc mx = Acc(-INFINITY);
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
      mx = Max<Acc>{}(mx, load<Acc>(x, x_dtype, base + k));
    }
    mx = block_reduce<Acc>(mx, scratch, Max<Acc>{});
    Acc sum = Acc(0);
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
      sum += exp(load<Acc>(x, x_dtype, base + k) - mx);
    }
    sum = block_reduce<Acc>(sum, scratch, Plus<Acc>{});
    const Acc scale = log_out ? Acc(log(sum)) : Acc(1) / sum;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
      const Acc v = load<Acc>(x, x_dtype, base + k) - mx;
      store<Acc>(y, y_dtype, base + k, log_out ? v - scale : exp(v) * scale);
    }
  }
}

template <typename Acc>
__global__ void softmax_inner_kernel(bool log_out, const void* x, int32_t x_dtype, void* y,
                                     int32_t y_dtype, int64_t lines, int64_t n, int64_t inner) {
  for (int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; t < lines;
       t += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = t / inner;
    const int64_t i = t % inner;
    const int64_t base = o * n * inner + i;
    Acc mx = Acc(-INFINITY);
    for (int64_t k = 0; k < n; ++k) mx = Max<Acc>{}(mx, load<Acc>(x, x_dtype, base + k * inner));
    Acc sum = Acc(0);
    for (int64_t k = 0; k < n; ++k) sum += exp(load<Acc>(x, x_dtype, base + k * inner) - mx);
    const Acc scale = log_out ? Acc(log(sum)) : Acc(1) / sum;
    for (int64_t k = 0; k < n; ++k) {
      const Acc v = load<Acc>(x, x_dtype, base + k * inner) - mx;
      store<Acc>(y, y_dtype, base + k * inner, log_out ? v - scale : exp(v) * scale);
    }
  }
}

template <typename Acc>
cudaError_t launch(bool log_out, const void* x, int32_t x_dtype, void* y, int32_t y_dtype,
                   int64_t outer, int64_t n, int64_t inner, cudaStream_t stream) {
  if (inner == 1) {
    softmax_last_dim_kernel<Acc>
        <<<row_blocks(outer), kThreads, 0, stream>>>(log_out, x, x_dtype, y, y_dtype, outer, n);
  } else {
    const int64_t lines = outer * inner;
    softmax_inner_kernel<Acc><<<blocks_for(lines), kThreads, 0, stream>>>(log_out, x, x_dtype, y,
                                                                          y_dtype, lines, n, inner);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t softmax(bool log, Compute compute, const void* x, int32_t x_dtype, void* y,
                    int32_t y_dtype, int64_t outer, int64_t n, int64_t inner, cudaStream_t stream) {
  if (outer == 0 || n == 0 || inner == 0) return cudaSuccess;
  if (compute == Compute::Double) {
    return launch<double>(log, x, x_dtype, y, y_dtype, outer, n, inner, stream);
  }
  return launch<float>(log, x, x_dtype, y, y_dtype, outer, n, inner, stream);
}

}  // namespace st::cuda::kernels
