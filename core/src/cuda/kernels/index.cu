// index.Tensor (advanced indexing) in two launches: the offset in self of
// every broadcast index position, then a copy of the non-indexed block at
// each offset into the result. Raw elements, grid-stride, 64-bit indices.
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

__global__ void index_offsets_kernel(Shape shape, IndexArgs args, int64_t* base,
                                     int32_t* out_of_range, int64_t bnum) {
  for (int64_t b = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; b < bnum;
       b += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t off = 0;
    for (int j = 0; j < args.count; ++j) {
      const int64_t size = args.sizes[j];
      const Operand& ix = args.index[j];
      int64_t v = static_cast<const int64_t*>(ix.data)[offset_of(shape, ix, b)];
      if (v < -size || v >= size) {
        *out_of_range = 1;  // every writer stores the same value
        v = 0;
      } else if (v < 0) {
        v += size;
      }
      off += v * args.strides[j];
    }
    base[b] = off;
  }
}

template <typename Word>
__global__ void index_gather_kernel(Shape rest, Operand self, const int64_t* base, Word* out,
                                    int64_t rnum, int64_t total) {
  const Word* in = static_cast<const Word*>(self.data);
  for (int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t b = t / rnum;
    out[t] = in[base[b] + offset_of(rest, self, t % rnum)];
  }
}

template <typename Word>
cudaError_t launch_gather(const Shape& rest, const Operand& self, const int64_t* base, void* out,
                          int64_t rnum, int64_t total, cudaStream_t stream) {
  index_gather_kernel<Word><<<blocks_for(total), kThreads, 0, stream>>>(
      rest, self, base, static_cast<Word*>(out), rnum, total);
  return cudaGetLastError();
}

}  // namespace

cudaError_t index_offsets(const Shape& shape, const IndexArgs& args, int64_t* base,
                          int32_t* out_of_range, int64_t bnum, cudaStream_t stream) {
  if (bnum == 0) return cudaSuccess;
  index_offsets_kernel<<<blocks_for(bnum), kThreads, 0, stream>>>(shape, args, base, out_of_range,
                                                                  bnum);
  return cudaGetLastError();
}

cudaError_t index_gather(const Shape& rest, const Operand& self, const int64_t* base, void* out,
                         int64_t bnum, int64_t rnum, int32_t element_size, cudaStream_t stream) {
  const int64_t total = bnum * rnum;
  if (total == 0) return cudaSuccess;
  switch (element_size) {
    case 1:
      return launch_gather<uint8_t>(rest, self, base, out, rnum, total, stream);
    case 2:
      return launch_gather<uint16_t>(rest, self, base, out, rnum, total, stream);
    case 4:
      return launch_gather<uint32_t>(rest, self, base, out, rnum, total, stream);
    case 8:
      return launch_gather<uint64_t>(rest, self, base, out, rnum, total, stream);
    case 16:
      return launch_gather<uint4>(rest, self, base, out, rnum, total, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace st::cuda::kernels
