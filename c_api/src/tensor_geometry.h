// Reading (ndim, sizes*, strides*) triples passed through the C ABI into
// checked vectors: ndim in [0, 64], non-null pointers when ndim > 0,
// non-negative sizes and strides; null strides mean contiguous.
#pragma once

#include <cstdint>
#include <vector>

#include <st/core/array_ref.h>

namespace stc {

struct Geometry {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  st::IntArrayRef sizes_ref() const { return st::IntArrayRef(sizes); }
  st::IntArrayRef strides_ref() const { return st::IntArrayRef(strides); }
};

Geometry read_geometry(int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr);

}  // namespace stc
