// A block-wide reduction over shared memory, shared by the row kernels of
// norm.cu, dot.cu and softmax.cu. Every thread of the block must call it
// (it synchronizes); every thread gets the result.
#pragma once

#include "dtype_access.cuh"

namespace st::cuda::kernels {

// Combines the blockDim.x values `v` with `op` (associative; the tree order
// is fixed, so results are deterministic). `scratch` holds kThreads Accs;
// the block must have at most kThreads threads, a power of two.
template <typename Acc, typename Op>
__device__ __forceinline__ Acc block_reduce(Acc v, Acc* scratch, Op op) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + s]);
    __syncthreads();
  }
  const Acc r = scratch[0];
  // The scratch is reused by the next call: nobody may overwrite slot 0
  // before every thread has read it.
  __syncthreads();
  return r;
}

// Blocks for a kernel that walks `rows` rows one block per row with a
// grid-stride loop: at most 2^20 blocks (well inside the x limit of
// 2^31 - 1), more rows are taken in further rounds.
inline unsigned int row_blocks(int64_t rows) {
  constexpr int64_t kMaxBlocks = int64_t{1} << 20;
  return static_cast<unsigned int>(rows < kMaxBlocks ? rows : kMaxBlocks);
}

}  // namespace st::cuda::kernels
