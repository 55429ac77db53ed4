// Checked reading of sizes/strides arrays (see tensor_geometry.h).
#include "tensor_geometry.h"

#include <st/core/empty_tensor.h>
#include <st/core/error.h>

namespace stc {

Geometry read_geometry(int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr) {
  ST_CHECK(ndim >= 0 && ndim <= 64, "ndim: expected 0..64 dimensions, got ", ndim);
  ST_CHECK(ndim == 0 || sizes_ptr != nullptr, "sizes_ptr: null pointer with ndim ", ndim);
  Geometry g;
  g.sizes.assign(sizes_ptr, sizes_ptr + ndim);
  for (int64_t i = 0; i < ndim; ++i) {
    ST_CHECK(g.sizes[i] >= 0, "sizes_ptr: size ", g.sizes[i], " of dimension ", i,
             " is negative");
  }
  g.strides.resize(static_cast<size_t>(ndim));
  if (strides_ptr == nullptr) {
    if (ndim > 0) st::detail::contiguous_strides(g.sizes_ref(), g.strides.data());
  } else {
    g.strides.assign(strides_ptr, strides_ptr + ndim);
    for (int64_t i = 0; i < ndim; ++i) {
      ST_CHECK(g.strides[i] >= 0, "strides_ptr: stride ", g.strides[i], " of dimension ", i,
               " is negative");
    }
  }
  return g;
}

}  // namespace stc
