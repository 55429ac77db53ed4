// Typed, N-dimensional views over strided tensor memory.
//
//   TensorAccessor<float, 2> a(ptr, sizes, strides);   // borrows sizes/strides
//   a[i][j] = 1.f;          // element at ptr + i*strides[0] + j*strides[1]
//
// TensorAccessor borrows its size and stride arrays: they must outlive it
// (the tensor's own arrays do). GenericPackedTensorAccessor copies them into
// itself, so it can be passed by value to a CUDA kernel; indexing it yields
// TensorAccessors that point into the packed object, valid while it lives.
// Neither checks element indices.
//
// The names extensions use are all provided: TensorAccessor,
// GenericPackedTensorAccessor (and their *Base), PackedTensorAccessor32/64,
// and the HeaderOnly* aliases of PyTorch >= 2.10 (torch::headeronly::
// HeaderOnlyTensorAccessor<T, N>, HeaderOnlyGenericPackedTensorAccessor<T, N,
// RestrictPtrTraits>).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#if defined(_MSC_VER) && !defined(__CUDACC__)
#define THO_ACCESSOR_RESTRICT_ __restrict
#else
#define THO_ACCESSOR_RESTRICT_ __restrict__
#endif

namespace torch::headeronly {

// PtrTraits<T>::PtrType is the pointer type an accessor stores.
template <typename T>
struct DefaultPtrTraits {
  using PtrType = T*;
};

// Marks the data pointer __restrict__: the caller promises no other pointer
// used in the same kernel aliases this tensor's memory.
template <typename T>
struct RestrictPtrTraits {
  using PtrType = T* THO_ACCESSOR_RESTRICT_;
};

// Data pointer plus borrowed size/stride arrays of length N.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
  static_assert(N >= 1, "an accessor needs at least one dimension");

 public:
  using PtrType = typename PtrTraits<T>::PtrType;

  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}

  // Host only: HeaderOnlyArrayRef is not a device type.
  C10_HOST HeaderOnlyArrayRef<index_t> sizes() const {
    return HeaderOnlyArrayRef<index_t>(sizes_, N);
  }
  C10_HOST HeaderOnlyArrayRef<index_t> strides() const {
    return HeaderOnlyArrayRef<index_t>(strides_, N);
  }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

// operator[] peels the first dimension: a TensorAccessor<T, N - 1> over the
// sub-tensor, or a reference to the element when N == 1.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
  using Base = TensorAccessorBase<T, N, PtrTraits, index_t>;

 public:
  using PtrType = typename Base::PtrType;
  using Base::Base;

  C10_HOST_DEVICE decltype(auto) operator[](index_t i) {
    if constexpr (N == 1) {
      return static_cast<T&>(this->data_[this->strides_[0] * i]);
    } else {
      return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                          this->sizes_ + 1, this->strides_ + 1);
    }
  }
  C10_HOST_DEVICE decltype(auto) operator[](index_t i) const {
    if constexpr (N == 1) {
      return static_cast<const T&>(this->data_[this->strides_[0] * i]);
    } else {
      return static_cast<const TensorAccessor<T, N - 1, PtrTraits, index_t>>(
          TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                       this->sizes_ + 1, this->strides_ + 1));
    }
  }
};

// Data pointer plus its own copies of the sizes and strides, so the whole
// accessor is a trivially copyable value (a kernel argument).
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessorBase {
  static_assert(N >= 1, "an accessor needs at least one dimension");

 public:
  using PtrType = typename PtrTraits<T>::PtrType;

  C10_HOST_DEVICE GenericPackedTensorAccessorBase(PtrType data, const index_t* sizes,
                                                  const index_t* strides)
      : data_(data) {
    for (size_t d = 0; d < N; ++d) {
      sizes_[d] = sizes[d];
      strides_[d] = strides[d];
    }
  }

  // From a tensor's int64_t arrays when index_t is narrower (the 32-bit
  // accessor). Values are narrowed without a check: the caller must know
  // that every size and stride fits index_t.
  template <typename source_index_t,
            typename = std::enable_if_t<std::is_same_v<source_index_t, int64_t> &&
                                        !std::is_same_v<source_index_t, index_t>>>
  C10_HOST_DEVICE GenericPackedTensorAccessorBase(PtrType data, const source_index_t* sizes,
                                                  const source_index_t* strides)
      : data_(data) {
    for (size_t d = 0; d < N; ++d) {
      sizes_[d] = static_cast<index_t>(sizes[d]);
      strides_[d] = static_cast<index_t>(strides[d]);
    }
  }

  C10_HOST HeaderOnlyArrayRef<index_t> sizes() const {
    return HeaderOnlyArrayRef<index_t>(sizes_, N);
  }
  C10_HOST HeaderOnlyArrayRef<index_t> strides() const {
    return HeaderOnlyArrayRef<index_t>(strides_, N);
  }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE PtrType data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];

  // Throws unless 0 <= dim < N.
  C10_HOST static void check_dim_(index_t dim) {
    STD_TORCH_CHECK(0 <= dim && dim < static_cast<index_t>(N), "Index ", dim,
                    " is not within bounds of a tensor of dimension ", N);
  }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessor
    : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
  using Base = GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t>;

 public:
  using PtrType = typename Base::PtrType;
  using Base::Base;

  // The sub-accessor points into this object's size/stride arrays.
  C10_HOST_DEVICE decltype(auto) operator[](index_t i) {
    if constexpr (N == 1) {
      return static_cast<T&>(this->data_[this->strides_[0] * i]);
    } else {
      return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                          this->sizes_ + 1, this->strides_ + 1);
    }
  }
  C10_HOST_DEVICE decltype(auto) operator[](index_t i) const {
    if constexpr (N == 1) {
      return static_cast<const T&>(this->data_[this->strides_[0] * i]);
    } else {
      return static_cast<const TensorAccessor<T, N - 1, PtrTraits, index_t>>(
          TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                       this->sizes_ + 1, this->strides_ + 1));
    }
  }

  // The same memory with dimensions dim1 and dim2 swapped (sizes and
  // strides exchanged; no element moves). Throws for an invalid dimension.
  C10_HOST GenericPackedTensorAccessor transpose(index_t dim1, index_t dim2) const {
    Base::check_dim_(dim1);
    Base::check_dim_(dim2);
    GenericPackedTensorAccessor result(*this);
    const index_t size1 = result.sizes_[dim1];
    const index_t stride1 = result.strides_[dim1];
    result.sizes_[dim1] = result.sizes_[dim2];
    result.strides_[dim1] = result.strides_[dim2];
    result.sizes_[dim2] = size1;
    result.strides_[dim2] = stride1;
    return result;
  }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

// The spellings of PyTorch >= 2.10 (see the file comment).
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using HeaderOnlyTensorAccessorBase = TensorAccessorBase<T, N, PtrTraits, index_t>;

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using HeaderOnlyTensorAccessor = TensorAccessor<T, N, PtrTraits, index_t>;

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using HeaderOnlyGenericPackedTensorAccessorBase =
    GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t>;

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using HeaderOnlyGenericPackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

}  // namespace torch::headeronly

#undef THO_ACCESSOR_RESTRICT_
