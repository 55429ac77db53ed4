// Where the rows of a tensor start. A kernel that walks a tensor row by
// row (sort, topk, cumsum along one dim; a reduction's outputs over the
// kept dims) numbers the rows row-major over the other dims and needs each
// one's first element.
#pragma once

#include <cstdint>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/tensor.h>

namespace st::native {

// The offset, in elements, of item `index` of a row-major walk over dims
// of these sizes and strides (outer first; index < the product of sizes;
// no dims: 0). What is left of index at the outermost dim is already below
// its size, so that dim takes no division: a matrix's rows take none
// (topk(k=1) over rows of 64 floats spent about 20 ns a row in the three
// tensors' divisions).
inline int64_t row_major_offset(IntArrayRef sizes, IntArrayRef strides, int64_t index) {
  const size_t nd = sizes.size();
  if (nd == 0) return 0;
  int64_t off = 0;
  for (size_t d = nd - 1; d > 0; --d) {
    off += (index % sizes[d]) * strides[d];
    index /= sizes[d];
  }
  return off + index * strides[0];
}

// Appends a dim to the sizes and strides of a row-major walk (outer
// first): merged into the previous dim when that one steps over it
// (strides.back() == size * stride: item i of the merged dim is at
// i * stride either way, whatever dims of the tensor lie between the two),
// left out when of size 1 (it adds nothing to an offset). A contiguous
// tensor's dims become one, whose items then take a multiply each in
// row_major_offset instead of a division per dim (over the last dim of
// [16, 1024, 64] floats, in one interleaved run against the walk without
// merges: amax 120 -> 70 us, sum 135 -> 91, topk(k=1) 1.57 -> 1.44 ms,
// cumsum 504 -> 468 us).
inline void append_walk_dim(std::vector<int64_t>& sizes, std::vector<int64_t>& strides,
                            int64_t size, int64_t stride) {
  if (size == 1) return;
  // (An empty tensor's strides are unbounded: a product that overflows
  // merges nothing.)
  int64_t step = 0;
  if (!sizes.empty() && !__builtin_mul_overflow(size, stride, &step) && strides.back() == step) {
    sizes.back() *= size;
    strides.back() = stride;
    return;
  }
  sizes.push_back(size);
  strides.push_back(stride);
}

// The rows along one dim of a tensor: row r's first element is at
// offset(r) elements from the data pointer. Two tensors of one shape (an
// input and its result) each get their own, since their strides may differ.
struct RowOffsets {
  std::vector<int64_t> sizes, strides;  // of every dim but the row's, merged
  RowOffsets(const Tensor& t, int64_t dim) {
    for (int64_t i = 0; i < t.dim(); ++i) {
      if (i != dim) append_walk_dim(sizes, strides, t.size(i), t.stride(i));
    }
  }
  // r < the number of rows (the product of the other dims' sizes).
  int64_t offset(int64_t r) const { return row_major_offset(sizes, strides, r); }
};

}  // namespace st::native
