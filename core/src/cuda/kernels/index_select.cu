// index_select on contiguous tensors, by element size (no dtype dispatch).
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Word>
__global__ void index_select_kernel(Word* out, const Word* self, const int64_t* index,
                                    int64_t nindex, int64_t self_dim, int64_t inner,
                                    int64_t total) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t in = i % inner;
    const int64_t k = (i / inner) % nindex;
    const int64_t o = i / (inner * nindex);
    out[i] = self[(o * self_dim + index[k]) * inner + in];
  }
}

template <typename Word>
cudaError_t launch(void* out, const void* self, const int64_t* index, int64_t nindex, int64_t outer,
                   int64_t self_dim, int64_t inner, cudaStream_t stream) {
  const int64_t total = outer * nindex * inner;
  if (total == 0) return cudaSuccess;
  index_select_kernel<Word><<<blocks_for(total), kThreads, 0, stream>>>(
      static_cast<Word*>(out), static_cast<const Word*>(self), index, nindex, self_dim, inner,
      total);
  return cudaGetLastError();
}

}  // namespace

cudaError_t index_select(void* out, const void* self, const int64_t* index, int64_t nindex,
                         int64_t outer, int64_t self_dim, int64_t inner, int32_t element_size,
                         cudaStream_t stream) {
  switch (element_size) {
    case 1:
      return launch<uint8_t>(out, self, index, nindex, outer, self_dim, inner, stream);
    case 2:
      return launch<uint16_t>(out, self, index, nindex, outer, self_dim, inner, stream);
    case 4:
      return launch<uint32_t>(out, self, index, nindex, outer, self_dim, inner, stream);
    case 8:
      return launch<uint64_t>(out, self, index, nindex, outer, self_dim, inner, stream);
    case 16:
      return launch<uint4>(out, self, index, nindex, outer, self_dim, inner, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace st::cuda::kernels
