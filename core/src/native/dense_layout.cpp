// Layouts of created tensors; see st/native/dense_layout.h.
#include <st/native/dense_layout.h>

#include <algorithm>
#include <utility>

#include <st/core/empty_tensor.h>

namespace st::native {

DimVector fastest_first_dim_order(IntArrayRef shape, IntArrayRef strides) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  const size_t noperands = nd == 0 ? 0 : strides.size() / static_cast<size_t>(nd);
  DimVector perm(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  // -1: d0 goes first, 1: d1 goes first, 0: no operand decides.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (size_t k = 0; k < noperands; ++k) {
      const int64_t a = strides[k * nd + d0], b = strides[k * nd + d1];
      if (a == 0 || b == 0) continue;
      if (a < b) return -1;
      if (a > b) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  // An insertion sort that stops at the first pair an operand keeps in
  // order, as PyTorch orders dims: pairs no operand decides make the
  // comparison no strict weak order, so a general sort could give another
  // order (and outputs another layout) than PyTorch's.
  for (int64_t i = 1; i < nd; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

DimVector dense_strides_in_order(IntArrayRef shape, IntArrayRef order) {
  DimVector strides(shape.size(), 1);
  int64_t running = 1;
  for (int64_t d : order) {
    strides[d] = running;
    running *= std::max<int64_t>(shape[d], 1);
  }
  return strides;
}

DimVector permuted_dense_strides(IntArrayRef shape, IntArrayRef strides) {
  return dense_strides_in_order(shape, fastest_first_dim_order(shape, strides));
}

Tensor empty_preserving(const Tensor& like, ScalarType dtype) {
  if (like.is_contiguous()) {
    return st::detail::empty_generic(like.sizes(), dtype, like.device());
  }
  if (like.is_non_overlapping_and_dense()) {
    return st::detail::empty_strided_generic(like.sizes(), like.strides(), dtype, like.device());
  }
  // Overlapping or with gaps: dense, in the order of like's strides.
  const DimVector strides = permuted_dense_strides(like.sizes(), like.strides());
  return st::detail::empty_strided_generic(like.sizes(), strides, dtype, like.device());
}

}  // namespace st::native
