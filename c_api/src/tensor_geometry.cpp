// Checked reading of sizes/strides arrays (see tensor_geometry.h).
#include "tensor_geometry.h"

#include <st/core/empty_tensor.h>
#include <st/core/error.h>

namespace stc {

Geometry read_geometry(int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr) {
  ST_CHECK(ndim >= 0 && ndim <= kMaxGeometryDims, "ndim: expected 0..", kMaxGeometryDims,
           " dimensions, got ", ndim);
  ST_CHECK(ndim == 0 || sizes_ptr != nullptr, "sizes_ptr: null pointer with ndim ", ndim);
  Geometry g;
  g.ndim = static_cast<size_t>(ndim);
  for (int64_t i = 0; i < ndim; ++i) {
    g.sizes[i] = sizes_ptr[i];
    ST_CHECK(g.sizes[i] >= 0, "sizes_ptr: size ", g.sizes[i], " of dimension ", i, " is negative");
  }
  if (strides_ptr == nullptr) {
    if (ndim > 0) st::detail::contiguous_strides(g.sizes_ref(), g.strides);
  } else {
    for (int64_t i = 0; i < ndim; ++i) {
      g.strides[i] = strides_ptr[i];
      ST_CHECK(g.strides[i] >= 0, "strides_ptr: stride ", g.strides[i], " of dimension ", i,
               " is negative");
    }
  }
  return g;
}

}  // namespace stc
