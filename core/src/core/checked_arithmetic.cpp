#include <st/core/checked_arithmetic.h>

namespace st {

int64_t checked_numel(IntArrayRef sizes, const char* op) {
  int64_t n = 1;
  bool overflow = false;
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ST_CHECK(sizes[i] >= 0, op, ": Trying to create tensor with negative dimension ", sizes[i],
             ": ", sizes);
    // Keep going after an overflow: a later negative size is the more
    // specific error, and a later 0 makes the true product 0.
    overflow |= __builtin_mul_overflow(n, sizes[i], &n);
    empty |= sizes[i] == 0;
  }
  if (empty) return 0;
  ST_CHECK(!overflow, op, ": number of elements of sizes ", sizes, " overflows int64");
  return n;
}

size_t checked_nbytes(int64_t count, size_t itemsize, const char* op) {
  ST_CHECK(count >= 0, op, ": expected a non-negative element count, got ", count);
  uint64_t nbytes = 0;
  ST_CHECK(!__builtin_mul_overflow(static_cast<uint64_t>(count), static_cast<uint64_t>(itemsize),
                                   &nbytes) &&
               nbytes <= static_cast<uint64_t>(INT64_MAX),
           op, ": byte size of ", count, " elements of ", itemsize,
           " bytes overflows int64 (storage size calculation overflowed)");
  return static_cast<size_t>(nbytes);
}

size_t checked_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                              int64_t storage_offset, const char* op) {
  ST_CHECK(sizes.size() == strides.size(), op, ": sizes ", sizes, " and strides ", strides,
           " differ in length");
  ST_CHECK(storage_offset >= 0, op, ": invalid storage offset ", storage_offset);
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ST_CHECK(sizes[i] >= 0, op, ": Trying to create tensor with negative dimension ", sizes[i],
             ": ", sizes);
    ST_CHECK(strides[i] >= 0, op, ": negative strides are not supported, got strides ", strides);
    empty |= sizes[i] == 0;
  }
  if (empty) return 0;
  // The index of the last reachable element, then one past it; every
  // partial sum is checked because each may be the first to wrap.
  int64_t last = storage_offset;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size() && !overflow; ++i) {
    int64_t step = 0;
    overflow = __builtin_mul_overflow(sizes[i] - 1, strides[i], &step) ||
               __builtin_add_overflow(last, step, &last);
  }
  int64_t extent = 0;
  overflow = overflow || __builtin_add_overflow(last, int64_t{1}, &extent);
  ST_CHECK(!overflow, op, ": storage size calculation overflowed with sizes=", sizes,
           ", strides=", strides, " and storage offset ", storage_offset,
           ": the extent overflows int64");
  return checked_nbytes(extent, itemsize, op);
}

}  // namespace st
