// Where each row along one dim of a tensor starts, for kernels that walk a
// tensor row by row (sort, topk, cumsum): row r's first element is at
// offset(r) elements from the data pointer, rows numbered in row-major
// order over the other dims. Two tensors of one shape (an input and its
// result) each get their own, since their strides may differ.
#pragma once

#include <cstdint>
#include <vector>

#include <st/core/tensor.h>

namespace st::native {

struct RowOffsets {
  std::vector<int64_t> sizes, strides;  // of every dim but the row's
  RowOffsets(const Tensor& t, int64_t dim) {
    for (int64_t i = 0; i < t.dim(); ++i) {
      if (i == dim) continue;
      sizes.push_back(t.size(i));
      strides.push_back(t.stride(i));
    }
  }
  // r < the product of the other dims' sizes (the number of rows). What is
  // left of r at the outermost dim is below its size, so that dim takes no
  // division: a matrix's rows take none (topk(k=1) over rows of 64 floats
  // spent about 20 ns a row in the three tensors' divisions).
  int64_t offset(int64_t r) const {
    if (sizes.empty()) return 0;
    int64_t off = 0;
    for (size_t k = sizes.size() - 1; k > 0; --k) {
      off += (r % sizes[k]) * strides[k];
      r /= sizes[k];
    }
    return off + r * strides[0];
  }
};

}  // namespace st::native
