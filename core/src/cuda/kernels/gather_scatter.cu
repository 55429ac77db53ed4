// gather and scatter over the index tensor's shape: each thread takes one
// index element, finds its coordinates, and moves one raw element (of the
// element size, no dtype dispatch) between the operand at those
// coordinates and self at the same coordinates with the `dim` one replaced
// by the index value. Negative values count from the end, as on the CPU; a
// value outside [-size, size) moves nothing and sets *out_of_range (the
// host reads the flag and raises the CPU's error). Grid-stride, 64-bit.
#include <cstring>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

// The offsets of linear index i in `a` and `b` (full coordinates) and in
// self with the `dim` coordinate left out.
__device__ __forceinline__ void offsets(const Shape& shape, const Operand& a, const Operand& b,
                                        const Operand& self, int32_t dim, int64_t i, int64_t* off_a,
                                        int64_t* off_b, int64_t* off_self) {
  int64_t oa = 0, ob = 0, os = 0;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    const int64_t size = shape.sizes[d];
    const int64_t idx = i % size;
    i /= size;
    oa += idx * a.strides[d];
    ob += idx * b.strides[d];
    if (d != dim) os += idx * self.strides[d];
  }
  *off_a = oa;
  *off_b = ob;
  *off_self = os;
}

// v when it lies in [0, dim_size), else -1 (flagged). A negative index is
// out of range: gather and scatter do not wrap it, as on the CPU.
__device__ __forceinline__ int64_t checked_index(int64_t v, int64_t dim_size,
                                                 int32_t* out_of_range) {
  if (v < 0 || v >= dim_size) {
    *out_of_range = 1;  // every writer stores the same value
    return -1;
  }
  return v;
}

template <typename Word>
__global__ void gather_kernel(Shape shape, Operand out, Operand self, Operand index, int32_t dim,
                              int64_t dim_size, int32_t* out_of_range, int64_t numel) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t oo, oi, os;
    offsets(shape, out, index, self, dim, i, &oo, &oi, &os);
    const int64_t v =
        checked_index(static_cast<const int64_t*>(index.data)[oi], dim_size, out_of_range);
    if (v < 0) continue;
    static_cast<Word*>(out.data)[oo] =
        static_cast<const Word*>(self.data)[os + v * self.strides[dim]];
  }
}

// src null: every written element is `value`.
template <typename Word>
__global__ void scatter_kernel(Shape shape, Operand self, Operand index, Operand src, bool has_src,
                               Word value, int32_t dim, int64_t dim_size, int32_t* out_of_range,
                               int64_t numel) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t or_, oi, os;
    offsets(shape, src, index, self, dim, i, &or_, &oi, &os);
    const int64_t v =
        checked_index(static_cast<const int64_t*>(index.data)[oi], dim_size, out_of_range);
    if (v < 0) continue;
    static_cast<Word*>(self.data)[os + v * self.strides[dim]] =
        has_src ? static_cast<const Word*>(src.data)[or_] : value;
  }
}

template <typename Word>
cudaError_t launch_gather(const Shape& shape, const Operand& out, const Operand& self,
                          const Operand& index, int32_t dim, int64_t dim_size,
                          int32_t* out_of_range, int64_t numel, cudaStream_t stream) {
  gather_kernel<Word><<<blocks_for(numel), kThreads, 0, stream>>>(shape, out, self, index, dim,
                                                                  dim_size, out_of_range, numel);
  return cudaGetLastError();
}

template <typename Word>
cudaError_t launch_scatter(const Shape& shape, const Operand& self, const Operand& index,
                           const Operand* src, const RawValue& value, int32_t dim, int64_t dim_size,
                           int32_t* out_of_range, int64_t numel, cudaStream_t stream) {
  // The value's bytes as a Word, copied rather than reinterpreted
  // (RawValue is only 8-byte aligned).
  Word w;
  static_assert(sizeof(Word) <= sizeof(RawValue::word), "value word too large");
  std::memcpy(&w, value.word, sizeof(Word));
  const Operand none{};
  scatter_kernel<Word><<<blocks_for(numel), kThreads, 0, stream>>>(
      shape, self, index, src != nullptr ? *src : none, src != nullptr, w, dim, dim_size,
      out_of_range, numel);
  return cudaGetLastError();
}

}  // namespace

cudaError_t gather(const Shape& shape, const Operand& out, const Operand& self,
                   const Operand& index, int32_t dim, int64_t dim_size, int32_t element_size,
                   int32_t* out_of_range, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  auto run = [&](auto word) {
    using Word = decltype(word);
    return launch_gather<Word>(shape, out, self, index, dim, dim_size, out_of_range, numel, stream);
  };
  switch (element_size) {
    case 1:
      return run(uint8_t{});
    case 2:
      return run(uint16_t{});
    case 4:
      return run(uint32_t{});
    case 8:
      return run(uint64_t{});
    case 16:
      return run(uint4{});
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t scatter(const Shape& shape, const Operand& self, const Operand& index,
                    const Operand* src, const RawValue& value, int32_t dim, int64_t dim_size,
                    int32_t element_size, int32_t* out_of_range, int64_t numel,
                    cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  auto run = [&](auto word) {
    using Word = decltype(word);
    return launch_scatter<Word>(shape, self, index, src, value, dim, dim_size, out_of_range, numel,
                                stream);
  };
  switch (element_size) {
    case 1:
      return run(uint8_t{});
    case 2:
      return run(uint16_t{});
    case 4:
      return run(uint32_t{});
    case 8:
      return run(uint64_t{});
    case 16:
      return run(uint4{});
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace st::cuda::kernels
