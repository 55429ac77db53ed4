// HeaderOnlyArrayRef<T>: a non-owning, read-only view of a contiguous run of
// T (pointer + length). It never outlives what it views; copy it by value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <type_traits>
#include <vector>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>

namespace torch::headeronly {

template <typename T>
class HeaderOnlyArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using reverse_iterator = std::reverse_iterator<iterator>;

  constexpr HeaderOnlyArrayRef() = default;

  // A view of one element.
  constexpr HeaderOnlyArrayRef(const T& one) : data_(&one), length_(1) {}

  constexpr HeaderOnlyArrayRef(const T* data, size_t length) : data_(data), length_(length) {}

  constexpr HeaderOnlyArrayRef(const T* begin, const T* end)
      : data_(begin), length_(static_cast<size_t>(end - begin)) {}

  template <typename A>
  HeaderOnlyArrayRef(const std::vector<T, A>& v) : data_(v.data()), length_(v.size()) {
    static_assert(!std::is_same_v<T, bool>,
                  "HeaderOnlyArrayRef<bool> cannot view std::vector<bool>");
  }

  template <size_t N>
  constexpr HeaderOnlyArrayRef(const std::array<T, N>& a) : data_(a.data()), length_(N) {}

  template <size_t N>
  constexpr HeaderOnlyArrayRef(const T (&a)[N]) : data_(a), length_(N) {}

  // Valid only while the initializer list lives: use for call arguments
  // (`f({2, 3})`), never to initialize a variable. GCC flags the member
  // initialization itself, which is intended here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr HeaderOnlyArrayRef(const std::initializer_list<T>& list)
      : data_(list.begin() == list.end() ? nullptr : list.begin()), length_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return length_; }
  constexpr bool empty() const { return length_ == 0; }
  constexpr iterator begin() const { return data_; }
  constexpr iterator end() const { return data_ + length_; }
  constexpr const_iterator cbegin() const { return data_; }
  constexpr const_iterator cend() const { return data_ + length_; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }

  constexpr const T& operator[](size_t index) const { return data_[index]; }

  // Bounds-checked access.
  const T& at(size_t index) const {
    STD_TORCH_CHECK_MSG(index < length_, "HeaderOnlyArrayRef: invalid index ", index, "; size is ",
                        length_);
    return data_[index];
  }

  const T& front() const {
    STD_TORCH_CHECK_MSG(!empty(), "HeaderOnlyArrayRef: front() called on an empty view");
    return data_[0];
  }

  const T& back() const {
    STD_TORCH_CHECK_MSG(!empty(), "HeaderOnlyArrayRef: back() called on an empty view");
    return data_[length_ - 1];
  }

  bool equals(HeaderOnlyArrayRef other) const {
    if (length_ != other.length_) {
      return false;
    }
    for (size_t i = 0; i < length_; ++i) {
      if (!(data_[i] == other.data_[i])) {
        return false;
      }
    }
    return true;
  }

  // The elements [start, start + n).
  HeaderOnlyArrayRef slice(size_t start, size_t n) const {
    STD_TORCH_CHECK_MSG(start <= length_ && n <= length_ - start,
                        "HeaderOnlyArrayRef: invalid slice [", start, ", ", start, " + ", n,
                        ") of a view of size ", length_);
    return HeaderOnlyArrayRef(data_ + start, n);
  }

  // The elements from start to the end.
  HeaderOnlyArrayRef slice(size_t start) const {
    STD_TORCH_CHECK_MSG(start <= length_,
                        "HeaderOnlyArrayRef: invalid slice "
                        "start ",
                        start, " of a view of size ", length_);
    return slice(start, length_ - start);
  }

  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  // Whether pred holds for every element (true for an empty view).
  bool allMatch(const std::function<bool(const T&)>& pred) const {
    for (const T& element : *this) {
      if (!pred(element)) {
        return false;
      }
    }
    return true;
  }

  // Assigning from a temporary would leave the view dangling once the
  // statement ends. (The template form keeps `ref = {}` choosing the
  // ordinary assignment.)
  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, HeaderOnlyArrayRef<T>>& operator=(U&& temporary) = delete;
  template <typename U>
  std::enable_if_t<std::is_same_v<U, T>, HeaderOnlyArrayRef<T>>& operator=(
      std::initializer_list<U>) = delete;

 private:
  const T* data_ = nullptr;
  size_t length_ = 0;
};

template <typename T>
bool operator==(HeaderOnlyArrayRef<T> a, HeaderOnlyArrayRef<T> b) {
  return a.equals(b);
}

template <typename T>
bool operator!=(HeaderOnlyArrayRef<T> a, HeaderOnlyArrayRef<T> b) {
  return !a.equals(b);
}

template <typename T>
std::ostream& operator<<(std::ostream& os, HeaderOnlyArrayRef<T> a) {
  os << "[";
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0) {
      os << ", ";
    }
    os << a[i];
  }
  return os << "]";
}

using IntHeaderOnlyArrayRef = HeaderOnlyArrayRef<int64_t>;

}  // namespace torch::headeronly
