// st::Tensor: the core's value handle to a TensorImpl (one pointer; copies
// share the same tensor, like torch.Tensor). A default-constructed Tensor is
// "undefined": only defined(), reset() and printing work on it; every other
// accessor throws st::Error.
//
// View and math operations are not methods here: they come from the
// dispatcher-generated API (st::view, Tensor::view, ...) in a later layer;
// their CPU kernels live in st/native/.
#pragma once

#include <cstdint>
#include <ostream>
#include <utility>

#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/error.h>
#include <st/core/export.h>
#include <st/core/intrusive_ptr.h>
#include <st/core/storage.h>
#include <st/core/tensor_impl.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

// The operator methods (t.add(u), t.sum()) are generated from
// native_functions.yaml into the build tree: declarations go inside the
// class body below, the types they name come first.
#include <st/generated/tensor_methods_includes.h>

namespace st {

namespace detail {
[[noreturn]] ST_API void throw_undefined_tensor(const char* what);
[[noreturn]] ST_API void throw_dtype_mismatch(ScalarType expected, ScalarType found);
}  // namespace detail

class ST_API Tensor {
 public:
  Tensor() noexcept = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) noexcept : impl_(std::move(impl)) {}

  bool defined() const noexcept { return impl_.defined(); }
  void reset() noexcept { impl_.reset(); }

  TensorImpl* unsafeGetTensorImpl() const noexcept { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& getIntrusivePtr() const noexcept { return impl_; }
  // Gives up this handle's reference (for the C ABI); see intrusive_ptr.
  [[nodiscard]] TensorImpl* unsafeReleaseTensorImpl() noexcept { return impl_.release(); }
  size_t use_count() const noexcept { return impl_.use_count(); }
  // True when both handles refer to the same TensorImpl.
  bool is_same(const Tensor& other) const noexcept { return impl_.get() == other.impl_.get(); }

  int64_t dim() const { return impl().dim(); }
  int64_t ndimension() const { return dim(); }
  IntArrayRef sizes() const { return impl().sizes(); }
  IntArrayRef strides() const { return impl().strides(); }
  int64_t size(int64_t dim) const { return impl().size(dim); }
  int64_t stride(int64_t dim) const { return impl().stride(dim); }
  int64_t numel() const { return impl().numel(); }
  int64_t storage_offset() const { return impl().storage_offset(); }
  ScalarType scalar_type() const { return impl().dtype(); }
  ScalarType dtype() const { return impl().dtype(); }
  int64_t element_size() const { return static_cast<int64_t>(impl().itemsize()); }
  int64_t itemsize() const { return element_size(); }
  // numel * element_size (the bytes the elements cover, not the storage).
  size_t nbytes() const { return static_cast<size_t>(impl().numel()) * impl().itemsize(); }
  Device device() const { return impl().device(); }
  bool is_cpu() const { return impl().device().is_cpu(); }
  bool is_cuda() const { return impl().device().is_cuda(); }
  bool is_meta() const { return impl().device().is_meta(); }
  const Storage& storage() const { return impl().storage(); }
  bool has_storage() const { return impl().has_storage(); }
  bool is_alias_of(const Tensor& other) const { return storage().is_alias_of(other.storage()); }
  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const {
    return impl().is_contiguous(format);
  }
  bool is_non_overlapping_and_dense() const { return impl().is_non_overlapping_and_dense(); }
  bool is_complex() const { return torch::headeronly::isComplexType(scalar_type()); }
  bool is_floating_point() const { return torch::headeronly::isFloatingType(scalar_type()); }

  // Address of element 0. data_ptr() is the mutable one, as in PyTorch.
  void* data_ptr() const { return impl().mutable_data(); }
  void* mutable_data_ptr() const { return impl().mutable_data(); }
  const void* const_data_ptr() const { return impl().data(); }

  // Typed access; throws st::Error "expected scalar type Float but found
  // Long" when T is not the tensor's dtype.
  template <typename T>
  T* data_ptr() const {
    check_dtype<T>();
    return static_cast<T*>(impl().mutable_data());
  }
  template <typename T>
  T* mutable_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  const T* const_data_ptr() const {
    return data_ptr<std::remove_const_t<T>>();
  }

  // The item of a one-element tensor (CPU only), by its own dtype.
  template <typename T>
  T item() const;

  // One member per 'variants: method' entry of native_functions.yaml,
  // each calling the operator through the dispatcher (defaults applied).
#include <st/generated/tensor_methods.h>

 private:
  TensorImpl& impl() const {
    if (__builtin_expect(!impl_.defined(), 0)) {
      detail::throw_undefined_tensor("access metadata or data of");
    }
    return *impl_;
  }
  template <typename T>
  void check_dtype() const {
    constexpr ScalarType expected = torch::headeronly::CppTypeToScalarType<T>::value;
    const ScalarType found = impl().dtype();
    if (__builtin_expect(found != expected, 0)) {
      detail::throw_dtype_mismatch(expected, found);
    }
  }

  intrusive_ptr<TensorImpl> impl_;
};

template <typename T>
T Tensor::item() const {
  ST_CHECK(numel() == 1, "item: expected a tensor with one element, got ", numel(), " elements");
  ST_CHECK(is_cpu(), "item: expected a CPU tensor, got device ", device());
  return *data_ptr<T>();
}

}  // namespace st
