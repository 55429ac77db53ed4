// st::Storage: the refcounted buffer under one or more tensors. Views of a
// tensor share its Storage. A storage made by an allocator owns its data
// and can be resized; one wrapping an external blob cannot.
#pragma once

#include <cstddef>

#include <st/core/allocator.h>
#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/intrusive_ptr.h>

namespace st {

namespace detail {
// A factory's block with room for its storage's data (Note [Small data in
// the block] in tensor_impl.cpp).
struct SmallDataBlock {
  char* block;
};
}  // namespace detail

class ST_API StorageImpl final : public intrusive_ptr_target {
 public:
  // Allocates nbytes with `allocator` (resizable).
  StorageImpl(size_t nbytes, Allocator* allocator);
  // Adopts `data`; resizable only when an allocator is given.
  StorageImpl(DataPtr data, size_t nbytes, Allocator* allocator, bool resizable);
  // Keeps its nbytes (at most 64) in `b`'s block; resizable with
  // `allocator`, the built-in CPU allocator. The DataPtr is built in place:
  // moved from a temporary, its fields are stored one by one and loaded
  // two at a time, which stalls store forwarding.
  StorageImpl(detail::SmallDataBlock b, size_t nbytes, Allocator* allocator);
  ~StorageImpl() override;

  void* mutable_data() const noexcept { return data_ptr_.get(); }
  const void* data() const noexcept { return data_ptr_.get(); }
  const DataPtr& data_ptr() const noexcept { return data_ptr_; }
  DataPtr& mutable_data_ptr() noexcept { return data_ptr_; }
  size_t nbytes() const noexcept { return nbytes_; }
  Allocator* allocator() const noexcept { return allocator_; }
  bool resizable() const noexcept { return resizable_; }
  Device device() const noexcept { return data_ptr_.device(); }

  // Reallocates to new_nbytes, keeping the first min(old, new) bytes.
  // Throws st::Error when the storage is not resizable.
  void resize(size_t new_nbytes);

  // Replaces the data (the old one is freed); for backends and tests.
  void set_data_ptr(DataPtr data, size_t nbytes);

 private:
  friend class TensorImpl;  // make_with_storage builds one in its block
  void destroy_self() noexcept override;

  DataPtr data_ptr_;
  size_t nbytes_;
  Allocator* allocator_;
  bool resizable_;
  // Lives in a TensorImpl's block (Note [Tensor and storage in one block]).
  bool in_block_ = false;
};

// Value handle to a StorageImpl (one pointer; copies share).
class ST_API Storage {
 public:
  Storage() noexcept = default;
  explicit Storage(intrusive_ptr<StorageImpl> impl) noexcept : impl_(std::move(impl)) {}

  // A new owned, resizable storage of nbytes from the device's allocator.
  static Storage allocate(size_t nbytes, Device device);
  static Storage allocate(size_t nbytes, Allocator* allocator);

  // Zero-copy wrap of an external blob. Without a deleter the caller keeps
  // ownership and must keep the blob alive; with one, deleter(context) runs
  // when the last reference goes. Never resizable.
  static Storage from_blob(void* data, size_t nbytes, Device device);
  static Storage from_blob(void* data, size_t nbytes, Device device, void* context,
                           DeleterFn deleter);

  bool defined() const noexcept { return impl_.defined(); }
  StorageImpl* unsafeGetStorageImpl() const noexcept { return impl_.get(); }
  const intrusive_ptr<StorageImpl>& impl() const noexcept { return impl_; }
  StorageImpl* operator->() const noexcept { return impl_.get(); }

  size_t nbytes() const noexcept { return impl_ ? impl_->nbytes() : 0; }
  void* mutable_data() const noexcept { return impl_ ? impl_->mutable_data() : nullptr; }
  const void* data() const noexcept { return impl_ ? impl_->data() : nullptr; }
  size_t use_count() const noexcept { return impl_.use_count(); }
  bool is_alias_of(const Storage& o) const noexcept { return impl_.get() == o.impl_.get(); }

 private:
  intrusive_ptr<StorageImpl> impl_;
};

}  // namespace st
