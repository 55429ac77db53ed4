// Stable row sorts (sort, topk) with CUB's radix sorts. Each
// element becomes a 64-bit key whose unsigned order is the CPU's order:
// integers with the sign bit flipped; floating values (widened to double,
// exactly) with -0.0 folded into 0.0, negative values' bits inverted and
// positive values' sign bit set, and every NaN the largest key. Descending
// sorts invert the key and sort ascending, so ties keep their index order
// in both directions (radix sort is stable) and NaN comes first. The
// payload is the element's index in its row; the values are then read
// back from the row by index, so they are the original elements bit for
// bit (NaN payloads, -0.0).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

constexpr size_t kAlign = 256;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The scratch layout: keys in/out, row indices in/out, segment offsets,
// then CUB's own temporary storage.
struct Layout {
  size_t keys, indices, offsets, cub_offset, cub_bytes, total;
};

// One row: the device-wide radix sort (the segmented one gives each
// segment a single block, far too little for one long row). More rows: the
// segmented sort. Both are stable.
cudaError_t run_sort(void* temp, size_t& bytes, const uint64_t* keys_in, uint64_t* keys_out,
                     const int64_t* idx_in, int64_t* idx_out, int64_t rows, int64_t n, int* offsets,
                     cudaStream_t stream) {
  if (rows == 1) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, idx_in, idx_out,
                                           static_cast<int>(n), 0, 64, stream);
  }
  return cub::DeviceSegmentedRadixSort::SortPairs(
      temp, bytes, keys_in, keys_out, idx_in, idx_out, static_cast<int>(rows * n),
      static_cast<int>(rows), offsets, offsets + 1, 0, 64, stream);
}

size_t cub_bytes(int64_t rows, int64_t n) {
  size_t bytes = 0;
  if (run_sort(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, rows, n, nullptr, nullptr) !=
      cudaSuccess) {
    return 0;
  }
  return bytes;
}

Layout layout(int64_t rows, int64_t n) {
  Layout l{};
  const size_t total_items = static_cast<size_t>(rows * n);
  l.keys = aligned(total_items * sizeof(uint64_t));
  l.indices = aligned(total_items * sizeof(int64_t));
  l.offsets = aligned(static_cast<size_t>(rows + 1) * sizeof(int));
  l.cub_offset = 2 * l.keys + 2 * l.indices + l.offsets;
  l.cub_bytes = cub_bytes(rows, n);
  l.total = l.cub_offset + aligned(l.cub_bytes);
  return l;
}

__device__ __forceinline__ uint64_t order_key(const void* in, int32_t dtype, int64_t i) {
  constexpr uint64_t kSign = uint64_t{1} << 63;
  if (is_integral(dtype)) return static_cast<uint64_t>(load<int64_t>(in, dtype, i)) ^ kSign;
  double v = load<double>(in, dtype, i);
  if (v != v) return ~uint64_t{0};
  if (v == 0.0) v = 0.0;  // -0.0 sorts as 0.0, as the CPU's comparison
  const uint64_t bits = static_cast<uint64_t>(__double_as_longlong(v));
  return (bits & kSign) != 0 ? ~bits : bits | kSign;
}

__global__ void keys_kernel(const void* in, int32_t dtype, int64_t total, int64_t n,
                            bool descending, uint64_t* keys, int64_t* row_index, int* offsets,
                            int64_t rows) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const uint64_t key = order_key(in, dtype, i);
    keys[i] = descending ? ~key : key;
    row_index[i] = i % n;
    if (i % n == 0) offsets[i / n] = static_cast<int>(i);
    if (i == 0) offsets[rows] = static_cast<int>(total);
  }
}

// The first k of each sorted row: indices, and the elements they name.
template <typename Word>
__global__ void take_kernel(const Word* in, const int64_t* sorted_index, int64_t rows, int64_t n,
                            int64_t k, Word* values, int64_t* indices) {
  const int64_t total = rows * k;
  for (int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t r = t / k;
    const int64_t j = sorted_index[r * n + t % k];
    indices[t] = j;
    values[t] = in[r * n + j];
  }
}

template <typename Word>
cudaError_t launch_take(const void* in, const int64_t* sorted_index, int64_t rows, int64_t n,
                        int64_t k, void* values, int64_t* indices, cudaStream_t stream) {
  if (rows * k == 0) return cudaSuccess;
  take_kernel<Word><<<blocks_for(rows * k), kThreads, 0, stream>>>(
      static_cast<const Word*>(in), sorted_index, rows, n, k, static_cast<Word*>(values), indices);
  return cudaGetLastError();
}

}  // namespace

size_t sort_scratch_bytes(int64_t rows, int64_t n) { return layout(rows, n).total; }

cudaError_t sort_rows(const void* in, int32_t dtype, int32_t element_size, int64_t rows, int64_t n,
                      int64_t k, bool descending, void* values, int64_t* indices, void* scratch,
                      size_t scratch_bytes, cudaStream_t stream) {
  const int64_t total = rows * n;
  if (total == 0 || k == 0) return cudaSuccess;
  if (total > 2147483647) return cudaErrorInvalidValue;  // CUB's int item count
  const Layout l = layout(rows, n);
  if (l.cub_bytes == 0 || scratch_bytes < l.total) return cudaErrorInvalidValue;
  char* base = static_cast<char*>(scratch);
  auto* keys_in = reinterpret_cast<uint64_t*>(base);
  auto* keys_out = reinterpret_cast<uint64_t*>(base + l.keys);
  auto* idx_in = reinterpret_cast<int64_t*>(base + 2 * l.keys);
  auto* idx_out = reinterpret_cast<int64_t*>(base + 2 * l.keys + l.indices);
  auto* offsets = reinterpret_cast<int*>(base + 2 * l.keys + 2 * l.indices);
  keys_kernel<<<blocks_for(total), kThreads, 0, stream>>>(in, dtype, total, n, descending, keys_in,
                                                          idx_in, offsets, rows);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  size_t cub_bytes_used = l.cub_bytes;
  err = run_sort(base + l.cub_offset, cub_bytes_used, keys_in, keys_out, idx_in, idx_out, rows, n,
                 offsets, stream);
  if (err != cudaSuccess) return err;
  switch (element_size) {
    case 1:
      return launch_take<uint8_t>(in, idx_out, rows, n, k, values, indices, stream);
    case 2:
      return launch_take<uint16_t>(in, idx_out, rows, n, k, values, indices, stream);
    case 4:
      return launch_take<uint32_t>(in, idx_out, rows, n, k, values, indices, stream);
    case 8:
      return launch_take<uint64_t>(in, idx_out, rows, n, k, values, indices, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace st::cuda::kernels
