// The device half of masked_select and nonzero: flags (element nonzero, or
// mask set) turned into output positions by a device-wide inclusive scan
// (CUB), then a compaction kernel writes each selected element (or its
// coordinates) at its position. The host reads the last position back to
// size the result: one synchronizing read per call.
#include <cub/device/device_scan.cuh>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

__global__ void flags_kernel(const void* in, int32_t dtype, int64_t* flags, int64_t n) {
  const bool integral = is_integral(dtype);
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    // NaN != 0, so NaN counts as nonzero, as the CPU's convert<bool>.
    const bool set =
        integral ? load<int64_t>(in, dtype, i) != 0 : load<double>(in, dtype, i) != 0.0;
    flags[i] = set ? 1 : 0;
  }
}

// Whether element i was selected: its inclusive position exceeds the one
// before it.
__device__ __forceinline__ bool selected(const int64_t* positions, int64_t i) {
  return positions[i] != (i > 0 ? positions[i - 1] : 0);
}

template <typename Word>
__global__ void compact_kernel(const Word* src, const int64_t* positions, Word* out, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (selected(positions, i)) out[positions[i] - 1] = src[i];
  }
}

__global__ void coords_kernel(Shape shape, const int64_t* positions, int64_t* out, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (!selected(positions, i)) continue;
    int64_t* row = out + (positions[i] - 1) * shape.ndim;
    int64_t rem = i;
    for (int d = shape.ndim - 1; d >= 0; --d) {
      row[d] = rem % shape.sizes[d];
      rem /= shape.sizes[d];
    }
  }
}

template <typename Word>
cudaError_t launch_compact(const void* src, const int64_t* positions, void* out, int64_t n,
                           cudaStream_t stream) {
  compact_kernel<Word><<<blocks_for(n), kThreads, 0, stream>>>(
      static_cast<const Word*>(src), positions, static_cast<Word*>(out), n);
  return cudaGetLastError();
}

}  // namespace

size_t select_scratch_bytes(int64_t n) {
  size_t bytes = 0;
  int64_t* none = nullptr;
  // In place (d_in == d_out), which CUB's scans support.
  if (cub::DeviceScan::InclusiveSum(nullptr, bytes, none, none, n) != cudaSuccess) return 0;
  return bytes;
}

cudaError_t select_positions(const void* in, int32_t dtype, int64_t* positions, int64_t n,
                             void* scratch, size_t scratch_bytes, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  flags_kernel<<<blocks_for(n), kThreads, 0, stream>>>(in, dtype, positions, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  return cub::DeviceScan::InclusiveSum(scratch, scratch_bytes, positions, positions, n, stream);
}

cudaError_t masked_compact(const void* src, const int64_t* positions, void* out,
                           int32_t element_size, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return launch_compact<uint8_t>(src, positions, out, n, stream);
    case 2:
      return launch_compact<uint16_t>(src, positions, out, n, stream);
    case 4:
      return launch_compact<uint32_t>(src, positions, out, n, stream);
    case 8:
      return launch_compact<uint64_t>(src, positions, out, n, stream);
    case 16:
      return launch_compact<uint4>(src, positions, out, n, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t nonzero_coords(const Shape& shape, const int64_t* positions, int64_t* out, int64_t n,
                           cudaStream_t stream) {
  if (n == 0 || shape.ndim == 0) return cudaSuccess;
  coords_kernel<<<blocks_for(n), kThreads, 0, stream>>>(shape, positions, out, n);
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
