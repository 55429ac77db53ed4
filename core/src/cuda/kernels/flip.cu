// flip: out (contiguous) takes element i from src at the coordinates of i
// with the flipped dimensions reversed. Raw elements of the element size
// (no dtype dispatch); grid-stride with 64-bit indices.
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Word>
__global__ void flip_kernel(Shape shape, Operand src, uint32_t flip_mask, Word* out,
                            int64_t numel) {
  const Word* in = static_cast<const Word*>(src.data);
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i;
    int64_t off = 0;
    for (int d = shape.ndim - 1; d >= 0; --d) {
      const int64_t size = shape.sizes[d];
      int64_t idx = rem % size;
      rem /= size;
      if ((flip_mask >> d) & 1u) idx = size - 1 - idx;
      off += idx * src.strides[d];
    }
    out[i] = in[off];
  }
}

template <typename Word>
cudaError_t launch(const Shape& shape, const Operand& src, uint32_t flip_mask, void* out,
                   int64_t numel, cudaStream_t stream) {
  flip_kernel<Word><<<blocks_for(numel), kThreads, 0, stream>>>(shape, src, flip_mask,
                                                                static_cast<Word*>(out), numel);
  return cudaGetLastError();
}

}  // namespace

cudaError_t flip(const Shape& shape, const Operand& src, uint32_t flip_mask, void* out,
                 int32_t element_size, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return launch<uint8_t>(shape, src, flip_mask, out, numel, stream);
    case 2:
      return launch<uint16_t>(shape, src, flip_mask, out, numel, stream);
    case 4:
      return launch<uint32_t>(shape, src, flip_mask, out, numel, stream);
    case 8:
      return launch<uint64_t>(shape, src, flip_mask, out, numel, stream);
    case 16:
      return launch<uint4>(shape, src, flip_mask, out, numel, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace st::cuda::kernels
