// load<T>(ptr): reads a T from memory that may hold any byte pattern. For
// bool the byte is read as a number and tested against zero, so a byte
// other than 0/1 (from a raw buffer) still gives a valid bool.
// Header-only: depends on nothing but the standard library.
#pragma once

#include <cstring>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

namespace detail {
template <typename T>
struct LoadImpl {
  C10_HOST_DEVICE static T apply(const void* src) { return *reinterpret_cast<const T*>(src); }
};

template <>
struct LoadImpl<bool> {
  C10_HOST_DEVICE static bool apply(const void* src) {
    static_assert(sizeof(bool) == sizeof(unsigned char));
    return *reinterpret_cast<const unsigned char*>(src) != 0;
  }
};
}  // namespace detail

template <typename T>
C10_HOST_DEVICE constexpr T load(const void* src) {
  return detail::LoadImpl<T>::apply(src);
}

template <typename scalar_t>
C10_HOST_DEVICE constexpr scalar_t load(const scalar_t* src) {
  return detail::LoadImpl<scalar_t>::apply(src);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::load;
namespace detail {
using torch::headeronly::detail::LoadImpl;
}  // namespace detail
}  // namespace c10
