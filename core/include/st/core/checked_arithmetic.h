// Overflow-checked size, stride and byte arithmetic: the one place where the
// core turns sizes and strides into element counts, extents and byte counts.
// Each helper returns the exact result or throws st::Error naming the
// operation and the operands, so a wrapped value never reaches an allocator,
// a storage resize or a kernel. Byte counts are also kept <= INT64_MAX, so
// they fit every signed offset computed from them later.
#pragma once

#include <cstddef>
#include <cstdint>

#include <st/core/array_ref.h>
#include <st/core/error.h>
#include <st/core/export.h>

namespace st {

// a * b in int64, or st::Error "<op>: <what> overflows int64: a * b".
inline int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r = 0;
  ST_CHECK(!__builtin_mul_overflow(a, b, &r), op, ": ", what, " overflows int64: ", a, " * ", b);
  return r;
}

// a + b in int64, or st::Error "<op>: <what> overflows int64: a + b".
inline int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r = 0;
  ST_CHECK(!__builtin_add_overflow(a, b, &r), op, ": ", what, " overflows int64: ", a, " + ", b);
  return r;
}

// a - b in int64, or st::Error "<op>: <what> overflows int64: a - b".
inline int64_t checked_sub(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r = 0;
  ST_CHECK(!__builtin_sub_overflow(a, b, &r), op, ": ", what, " overflows int64: ", a, " - ", b);
  return r;
}

// The product of `sizes`. Throws st::Error "<op>: Trying to create tensor
// with negative dimension ..." for a negative size and "<op>: number of
// elements of sizes [...] overflows int64" when the product does not fit.
ST_API int64_t checked_numel(IntArrayRef sizes, const char* op);

// count * itemsize as a byte count (count >= 0). Throws st::Error "<op>:
// byte size of <count> elements of <itemsize> bytes overflows ..." when the
// product exceeds INT64_MAX.
ST_API size_t checked_nbytes(int64_t count, size_t itemsize, const char* op);

// Bytes a storage needs to hold every element reachable from
// `storage_offset` through sizes/strides (non-negative strides):
// (storage_offset + 1 + sum((size - 1) * stride)) * itemsize, 0 when any
// size is 0. Throws st::Error naming op, sizes, strides and the offset on
// mismatched lengths or when any step overflows or the result exceeds
// INT64_MAX.
ST_API size_t checked_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                                     int64_t storage_offset, const char* op);

}  // namespace st
