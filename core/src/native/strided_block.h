// A 2-d block of elements moved between two strided layouts: the inner
// step of the tiled transposes (a copy whose last dims cross, Note
// [Transposing copies by tiles]; an input read across the iterator's rows,
// Note [Crossed inputs by tiles]). Elements move by size, so one loop
// serves every dtype of 1, 2, 4, 8 or 16 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace st::native {

// Which element (outer o, inner i) goes where: from
// src + o * src_outer + i * src_inner to dst + o * dst_outer + i * dst_inner,
// steps in bytes. Which dim is inner is the caller's measured choice: the
// loop order decides which side's lines stay open in the L1.
struct BlockSteps {
  int64_t outer = 0;
  int64_t inner = 0;
  int64_t dst_outer = 0;
  int64_t dst_inner = 0;
  int64_t src_outer = 0;
  int64_t src_inner = 0;
};

// The inner walk's length is at most copy_block's kMaxInner. A small bound
// lets the compiler unroll the walk into stores at fixed offsets: the
// copy's tiles (8 columns, contiguous in dst) ran a 1000 x 1000 float
// contiguous() of a transpose in 300 us unrolled, 400-490 as a loop. The
// iterator's walks (16 rows down a column into a strided buffer) were 1.25x
// slower unrolled (mul by a 1024^2 transpose 650 us against 520), so they
// keep the loop with kAnyInner.
constexpr int64_t kAnyInner = INT64_MAX;

// Whether copy_block takes elements of this size.
constexpr bool block_copyable(size_t itemsize) {
  return itemsize != 0 && itemsize <= 16 && (itemsize & (itemsize - 1)) == 0;
}

namespace detail {

// (The steps are taken by value: through a reference, each element's
// store might change them, and they would be read again per element.)
template <size_t kBytes, bool kPrefetch, int64_t kMaxInner>
__attribute__((always_inline)) inline void copy_block_of(char* dst, const char* src,
                                                         const BlockSteps b) {
  for (int64_t o = 0; o < b.outer; ++o) {
    char* d = dst + o * b.dst_outer;
    const char* s = src + o * b.src_outer;
    if constexpr (kPrefetch) {
      // The line after this walk's last element: the next block's start
      // along it, which a walk of crossing lines does not get prefetched.
      __builtin_prefetch(s + b.inner * b.src_inner);
    }
    for (int64_t i = 0; i < kMaxInner && i < b.inner; ++i) {
      std::memcpy(d + i * b.dst_inner, s + i * b.src_inner, kBytes);
    }
  }
}

}  // namespace detail

// Moves the block; itemsize must be block_copyable and b.inner at most
// kMaxInner. With kPrefetch, each outer step first asks for the source
// line just past its walk. Inlined, so that the caller's constants (the
// element size in each case of the switch, the bound) reach the loop.
template <bool kPrefetch, int64_t kMaxInner>
__attribute__((always_inline)) inline void copy_block(char* dst, const char* src,
                                                      const BlockSteps& b, size_t itemsize) {
  switch (itemsize) {
    case 1:
      return detail::copy_block_of<1, kPrefetch, kMaxInner>(dst, src, b);
    case 2:
      return detail::copy_block_of<2, kPrefetch, kMaxInner>(dst, src, b);
    case 4:
      return detail::copy_block_of<4, kPrefetch, kMaxInner>(dst, src, b);
    case 8:
      return detail::copy_block_of<8, kPrefetch, kMaxInner>(dst, src, b);
    default:
      return detail::copy_block_of<16, kPrefetch, kMaxInner>(dst, src, b);
  }
}

}  // namespace st::native
