// SmallVector<T, N>: a vector whose first N elements live inside the object.
//
// The elementwise engine builds a handful of short arrays per operator call
// (the broadcast shape, per-operand strides, the dim order, the operand
// tensors); with std::vector each was a heap allocation and a free, which
// at one to a thousand elements cost more than the arithmetic. Up to N
// elements need no allocation; past N it grows on the heap like a vector.
//
// Only what the engine uses: no insert/erase in the middle. Elements must
// be nothrow-move-constructible (growth moves them). Not thread-safe, as a
// std::vector is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

#include <st/core/array_ref.h>
#include <st/core/error.h>

namespace st {

template <typename T, size_t N>
class SmallVector {
  static_assert(N > 0, "SmallVector needs inline room for at least one element");
  static_assert(std::is_nothrow_move_constructible_v<T>,
                "SmallVector moves its elements when it grows");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  SmallVector(size_t n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> list) { assign(list.begin(), list.end()); }
  template <typename It, typename = decltype(*std::declval<It>())>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { take(std::move(other)); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      take(std::move(other));
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  // Whether the elements are on the heap (past N); for tests.
  bool on_heap() const { return data_ != inline_data(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  // The elements as an ArrayRef (IntArrayRef for int64_t), valid while the
  // vector is neither changed nor destroyed.
  operator ArrayRef<T>() const { return ArrayRef<T>(data_, size_); }

  void reserve(size_t n) {
    if (n > capacity_) grow_to(n);
  }
  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      // The argument may be an element of this vector: build the new one
      // before growing moves the old ones.
      T made(std::forward<Args>(args)...);
      grow_to(next_capacity());
      new (data_ + size_) T(std::move(made));
    } else {
      new (data_ + size_) T(std::forward<Args>(args)...);
    }
    return data_[size_++];
  }
  void clear() { destroy_from(0); }
  // Default-constructs (value-initialized: zero for numbers) new elements.
  void resize(size_t n) {
    if (n < size_) {
      destroy_from(n);
      return;
    }
    reserve(n);
    for (; size_ < n; ++size_) new (data_ + size_) T();
  }
  void resize(size_t n, const T& value) {
    if (n < size_) {
      destroy_from(n);
      return;
    }
    const T copy = value;  // value may be an element
    reserve(n);
    for (; size_ < n; ++size_) new (data_ + size_) T(copy);
  }
  void assign(size_t n, const T& value) {
    const T copy = value;
    clear();
    resize(n, copy);
  }
  template <typename It, typename = decltype(*std::declval<It>())>
  void assign(It first, It last) {
    clear();
    for (; first != last; ++first) emplace_back(*first);
  }

 private:
  T* inline_data() { return reinterpret_cast<T*>(inline_); }
  const T* inline_data() const { return reinterpret_cast<const T*>(inline_); }

  size_t next_capacity() const {
    return capacity_ * 2;  // never 0: capacity_ starts at N > 0
  }
  void grow_to(size_t n) {
    size_t bytes = 0;
    ST_CHECK(!__builtin_mul_overflow(n, sizeof(T), &bytes), "SmallVector: ", n, " elements of ",
             sizeof(T), " bytes overflow size_t");
    T* fresh = static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    free_heap();
    data_ = fresh;
    capacity_ = n;
  }
  void destroy_from(size_t n) {
    for (size_t i = n; i < size_; ++i) data_[i].~T();
    size_ = n;
  }
  void free_heap() {
    if (on_heap()) ::operator delete(data_, std::align_val_t(alignof(T)));
  }
  void release() {
    destroy_from(0);
    free_heap();
    data_ = inline_data();
    capacity_ = N;
  }
  // Takes other's elements (this is empty with inline storage): the heap
  // block when it has one, else moved one by one.
  void take(SmallVector&& other) noexcept {
    if (other.on_heap()) {
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.data_ = other.inline_data();
      other.size_ = 0;
      other.capacity_ = N;
      return;
    }
    for (size_t i = 0; i < other.size_; ++i) new (data_ + i) T(std::move(other.data_[i]));
    size_ = other.size_;
    other.destroy_from(0);
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
};

// The engine's usual sizes: dims of a shape, and dims x operands.
using DimVector = SmallVector<int64_t, 8>;

}  // namespace st
