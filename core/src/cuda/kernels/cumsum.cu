// cumsum along the middle dimension of [outer, n, inner]: one block per
// line (grid-stride over the outer * inner lines), the line taken in chunks
// of kThreads elements, each scanned with cub::BlockScan and offset by the
// running total of the chunks before it. Accumulation as the CPU's:
// double for floating dtypes, wrapping 64-bit integers otherwise (as
// uint64, where overflow is defined).
#include <type_traits>

#include <cub/block/block_scan.cuh>

#include "block_reduce.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__global__ void cumsum_kernel(const void* x, void* y, int32_t dtype, int64_t lines, int64_t n,
                              int64_t inner) {
  using Scan = cub::BlockScan<Acc, kThreads>;
  __shared__ typename Scan::TempStorage temp;
  for (int64_t line = blockIdx.x; line < lines; line += gridDim.x) {
    const int64_t o = line / inner;
    const int64_t i = line % inner;
    const int64_t base = o * n * inner + i;
    Acc carry = Acc(0);
    for (int64_t start = 0; start < n; start += kThreads) {
      const int64_t k = start + threadIdx.x;
      const Acc v = k < n ? load<Acc>(x, dtype, base + k * inner) : Acc(0);
      Acc scanned;
      Acc chunk_total;
      Scan(temp).InclusiveSum(v, scanned, chunk_total);
      if (k < n) store<Acc>(y, dtype, base + k * inner, carry + scanned);
      carry = carry + chunk_total;
      // temp is reused by the next chunk's scan.
      __syncthreads();
    }
  }
}

template <typename Acc>
cudaError_t launch(const void* x, void* y, int32_t dtype, int64_t lines, int64_t n, int64_t inner,
                   cudaStream_t stream) {
  cumsum_kernel<Acc><<<row_blocks(lines), kThreads, 0, stream>>>(x, y, dtype, lines, n, inner);
  return cudaGetLastError();
}

}  // namespace

cudaError_t cumsum(const void* x, void* y, int32_t dtype, int64_t outer, int64_t n, int64_t inner,
                   cudaStream_t stream) {
  const int64_t lines = outer * inner;
  if (lines == 0 || n == 0) return cudaSuccess;
  switch (dtype) {
    case kHalf:
    case kBFloat16:
    case kFloat:
    case kDouble:
      return launch<double>(x, y, dtype, lines, n, inner, stream);
    default:
      return launch<uint64_t>(x, y, dtype, lines, n, inner, stream);
  }
}

}  // namespace st::cuda::kernels
