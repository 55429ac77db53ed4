// SizesAndStrides: a tensor's sizes and strides in one small vector. Up to
// kInlineDims dims live inside the object (no allocation for the common
// case); more dims move both arrays to one heap block.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>

#include <st/core/array_ref.h>

namespace st {

class SizesAndStrides {
 public:
  static constexpr size_t kInlineDims = 5;

  SizesAndStrides() noexcept : size_(1) {
    // A fresh tensor is one-dimensional with size 0 (like an empty Tensor).
    inline_[0] = 0;
    inline_[kInlineDims] = 1;
  }
  ~SizesAndStrides() { free_heap(); }

  SizesAndStrides(const SizesAndStrides& o) : size_(0) { copy_from(o); }
  SizesAndStrides& operator=(const SizesAndStrides& o) {
    if (this != &o) {
      copy_from(o);
    }
    return *this;
  }
  SizesAndStrides(SizesAndStrides&& o) noexcept : size_(o.size_) {
    if (o.is_inline()) {
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    } else {
      heap_ = o.heap_;
      o.heap_ = nullptr;
      o.size_ = 0;
    }
  }
  SizesAndStrides& operator=(SizesAndStrides&& o) noexcept {
    if (this != &o) {
      free_heap();
      size_ = o.size_;
      if (o.is_inline()) {
        std::memcpy(inline_, o.inline_, sizeof(inline_));
      } else {
        heap_ = o.heap_;
        o.heap_ = nullptr;
        o.size_ = 0;
      }
    }
    return *this;
  }

  size_t size() const noexcept { return size_; }
  bool is_inline() const noexcept { return size_ <= kInlineDims; }

  const int64_t* sizes_data() const noexcept { return is_inline() ? inline_ : heap_; }
  int64_t* sizes_data() noexcept { return is_inline() ? inline_ : heap_; }
  const int64_t* strides_data() const noexcept {
    return is_inline() ? inline_ + kInlineDims : heap_ + size_;
  }
  int64_t* strides_data() noexcept { return is_inline() ? inline_ + kInlineDims : heap_ + size_; }

  IntArrayRef sizes() const noexcept { return IntArrayRef(sizes_data(), size_); }
  IntArrayRef strides() const noexcept { return IntArrayRef(strides_data(), size_); }

  // Changes the number of dims, keeping the leading min(old, new) entries;
  // new entries are unspecified until written.
  void resize(size_t new_size) {
    if (new_size == size_) {
      return;
    }
    if (new_size <= kInlineDims) {
      if (!is_inline()) {
        int64_t* old = heap_;
        const size_t old_size = size_;
        std::memcpy(inline_, old, new_size * sizeof(int64_t));
        std::memcpy(inline_ + kInlineDims, old + old_size, new_size * sizeof(int64_t));
        delete[] old;
      } else if (new_size < size_) {
        // Strides start at a fixed slot: nothing to move.
      }
      size_ = new_size;
      return;
    }
    int64_t* block = new int64_t[2 * new_size];
    const size_t keep = size_ < new_size ? size_ : new_size;
    std::memcpy(block, sizes_data(), keep * sizeof(int64_t));
    std::memcpy(block + new_size, strides_data(), keep * sizeof(int64_t));
    free_heap();
    heap_ = block;
    size_ = new_size;
  }

  void set(IntArrayRef sizes, IntArrayRef strides) {
    resize(sizes.size());
    if (sizes.size() > 0) {
      std::memcpy(sizes_data(), sizes.data(), sizes.size() * sizeof(int64_t));
      std::memcpy(strides_data(), strides.data(), strides.size() * sizeof(int64_t));
    }
  }

 private:
  void free_heap() noexcept {
    if (!is_inline()) {
      delete[] heap_;
    }
  }
  void copy_from(const SizesAndStrides& o) {
    if (o.is_inline()) {
      free_heap();
      size_ = o.size_;
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    } else {
      set(o.sizes(), o.strides());
    }
  }

  size_t size_;
  union {
    int64_t* heap_;
    int64_t inline_[2 * kInlineDims];
  };
};

}  // namespace st
