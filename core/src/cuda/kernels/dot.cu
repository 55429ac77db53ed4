// dot: a two-pass reduction. Pass one: a fixed grid (it depends on n only,
// so the summation order, and with it the rounding, is the same on every
// run) writes one partial sum per block; pass two: one block adds them.
// Integers accumulate as uint64 so that overflow wraps (defined), which
// truncated to the stored width is what the CPU's wrapping gives.
#include <type_traits>

#include "block_reduce.cuh"

namespace st::cuda::kernels {
namespace {

constexpr int64_t kMaxPartials = 1024;

template <typename Acc>
struct Plus {
  __device__ Acc operator()(Acc a, Acc b) const { return a + b; }
};

template <typename Acc>
__global__ void dot_partial_kernel(const void* a, int64_t sa, const void* b, int64_t sb,
                                   int32_t dtype, int64_t n, Acc* partials) {
  __shared__ Acc scratch[kThreads];
  Acc acc = Acc(0);
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    acc += load<Acc>(a, dtype, i * sa) * load<Acc>(b, dtype, i * sb);
  }
  acc = block_reduce<Acc>(acc, scratch, Plus<Acc>{});
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <typename Acc>
__global__ void dot_final_kernel(const Acc* partials, int64_t count, void* out, int32_t dtype) {
  __shared__ Acc scratch[kThreads];
  Acc acc = Acc(0);
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) acc += partials[i];
  acc = block_reduce<Acc>(acc, scratch, Plus<Acc>{});
  if (threadIdx.x == 0) {
    store<Acc>(out, dtype, 0, acc);
  }
}

template <typename Acc>
cudaError_t launch(const void* a, int64_t sa, const void* b, int64_t sb, int32_t dtype, void* out,
                   int64_t n, void* partials, cudaStream_t stream) {
  const int64_t count = dot_partials(n);
  auto* p = static_cast<Acc*>(partials);
  dot_partial_kernel<Acc>
      <<<static_cast<unsigned int>(count), kThreads, 0, stream>>>(a, sa, b, sb, dtype, n, p);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  dot_final_kernel<Acc><<<1, kThreads, 0, stream>>>(p, count, out, dtype);
  return cudaGetLastError();
}

}  // namespace

int64_t dot_partials(int64_t n) {
  const int64_t b = (n + kThreads - 1) / kThreads;
  return b < 1 ? 1 : (b < kMaxPartials ? b : kMaxPartials);
}

cudaError_t dot(Compute compute, const void* a, int64_t stride_a, const void* b, int64_t stride_b,
                int32_t dtype, void* out, int64_t n, void* partials, cudaStream_t stream) {
  switch (compute) {
    case Compute::Float:
      return launch<float>(a, stride_a, b, stride_b, dtype, out, n, partials, stream);
    case Compute::Double:
      return launch<double>(a, stride_a, b, stride_b, dtype, out, n, partials, stream);
    case Compute::Int:
      return launch<uint64_t>(a, stride_a, b, stride_b, dtype, out, n, partials, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace st::cuda::kernels
