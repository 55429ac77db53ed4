// TensorImpl: the refcounted object behind st::Tensor. It holds the
// Storage, the sizes/strides (inline up to 5 dims), the storage offset, the
// dtype and device, and contiguity flags cached from the metadata (every
// setter recomputes them). See docs/architecture.md, "Core data structures".
#pragma once

#include <atomic>
#include <cstdint>

#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/error.h>
#include <st/core/export.h>
#include <st/core/intrusive_ptr.h>
#include <st/core/sizes_and_strides.h>
#include <st/core/storage.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {

using ScalarType = torch::headeronly::ScalarType;
using MemoryFormat = torch::headeronly::MemoryFormat;

class ST_API TensorImpl final : public intrusive_ptr_target {
 public:
  // A 1-d tensor of size 0 over `storage` (set sizes afterwards).
  TensorImpl(Storage storage, ScalarType dtype, Device device);
  ~TensorImpl() override;

  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;

  // What factories make: a 1-d tensor of size 0 (as the constructor) over
  // a new resizable storage of nbytes from `allocator`, both in one
  // allocation (Note [Tensor and storage in one block]). Throws st::Error
  // for a dtype that is not concrete or when the allocator fails.
  static intrusive_ptr<TensorImpl> make_with_storage(size_t nbytes, Allocator* allocator,
                                                     ScalarType dtype, Device device);

  int64_t dim() const noexcept { return static_cast<int64_t>(sizes_and_strides_.size()); }
  IntArrayRef sizes() const noexcept { return sizes_and_strides_.sizes(); }
  IntArrayRef strides() const noexcept { return sizes_and_strides_.strides(); }
  // Wraps negative dims; throws st::Error when out of range.
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t numel() const noexcept { return numel_; }
  int64_t storage_offset() const noexcept { return storage_offset_; }
  ScalarType dtype() const noexcept { return dtype_; }
  ScalarType scalar_type() const noexcept { return dtype_; }
  size_t itemsize() const noexcept { return itemsize_; }
  Device device() const noexcept { return device_; }
  const Storage& storage() const noexcept { return storage_; }
  bool has_storage() const noexcept { return storage_.defined(); }

  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const {
    if (__builtin_expect(format == MemoryFormat::Contiguous, 1)) {
      return is_contiguous_;
    }
    return is_contiguous_slow(format);
  }
  bool is_non_overlapping_and_dense() const noexcept { return is_non_overlapping_and_dense_; }

  // A zero-dim tensor made from a C++ number (type promotion treats it as
  // a "wrapped number"). Only valid on 0-dim tensors.
  bool is_wrapped_number() const noexcept { return is_wrapped_number_; }
  void set_wrapped_number(bool value);

  // Address of element 0 (storage data + offset * itemsize). Null when the
  // storage has no data (empty tensors).
  void* mutable_data() const noexcept {
    char* base = static_cast<char*>(storage_.mutable_data());
    if (base == nullptr) {
      return nullptr;
    }
    return base + storage_offset_ * static_cast<int64_t>(itemsize_);
  }
  const void* data() const noexcept { return mutable_data(); }

  // --- metadata setters (recompute numel and the contiguity flags) ---
  // Sizes with contiguous strides. Throws on negative sizes / overflow.
  void set_sizes_contiguous(IntArrayRef sizes);
  // Throws when sizes/strides lengths differ or a size is negative. Does
  // not check bounds against the storage (callers do: see as_strided).
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides);
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  // The trusted entry for callers that have already checked the metadata
  // (the factories): sizes and strides of the same length, no negative
  // size, `numel` their product computed without overflow. Checks nothing.
  void set_validated_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t numel);
  // Every setter validates before writing: on st::Error the tensor is
  // unchanged.
  void set_storage_offset(int64_t storage_offset);
  void set_storage(Storage storage);
  // Reinterprets the elements (view(dtype)); the caller fixes sizes.
  void set_dtype(ScalarType dtype);

  // Process-wide number of live TensorImpls (leak tests, the C ABI).
  static int64_t live_count() noexcept;

 private:
  void destroy_self() noexcept override;
  void refresh_contiguous() noexcept;
  bool is_contiguous_slow(MemoryFormat format) const;

  Storage storage_;
  SizesAndStrides sizes_and_strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 0;
  size_t itemsize_;
  ScalarType dtype_;
  Device device_;
  bool is_contiguous_ = true;
  bool is_channels_last_contiguous_ = false;
  bool is_channels_last_3d_contiguous_ = false;
  bool is_non_overlapping_and_dense_ = true;
  bool is_wrapped_number_ = false;
  // Made by make_with_storage (Note [Tensor and storage in one block]),
  // with the storage's first data in the block too (Note [Small data in the
  // block]).
  bool in_block_ = false;
  bool data_in_block_ = false;
};

// Number of live TensorImpls in the process.
ST_API int64_t live_tensor_count() noexcept;

}  // namespace st
