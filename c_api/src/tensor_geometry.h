// Reading (ndim, sizes*, strides*) triples passed through the C ABI into
// checked copies: ndim in [0, 64], non-null pointers when ndim > 0,
// non-negative sizes and strides; null strides mean contiguous.
#pragma once

#include <cstddef>
#include <cstdint>

#include <st/core/array_ref.h>

namespace stc {

constexpr int64_t kMaxGeometryDims = 64;

// Held in place (no allocation: tensor creation through the C ABI makes
// this on every call; 64 dims fit in 1 KiB of stack).
struct Geometry {
  size_t ndim;
  int64_t sizes[kMaxGeometryDims];
  int64_t strides[kMaxGeometryDims];
  st::IntArrayRef sizes_ref() const { return st::IntArrayRef(sizes, ndim); }
  st::IntArrayRef strides_ref() const { return st::IntArrayRef(strides, ndim); }
};

Geometry read_geometry(int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr);

}  // namespace stc
