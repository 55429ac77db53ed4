#include <st/core/storage.h>

#include <algorithm>

#include <st/core/error.h>

#include "tensor_storage_block.h"

namespace st {

namespace {

Allocator* non_null(Allocator* allocator) {
  ST_CHECK(allocator != nullptr, "Storage: expected an allocator, got null");
  return allocator;
}

}  // namespace

// The data is allocated in the initializer: no empty DataPtr built and
// then replaced (this is on the path of every factory).
StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator)
    : data_ptr_(non_null(allocator)->allocate(nbytes)),
      nbytes_(nbytes),
      allocator_(allocator),
      resizable_(true) {}

StorageImpl::StorageImpl(DataPtr data, size_t nbytes, Allocator* allocator, bool resizable)
    : data_ptr_(std::move(data)), nbytes_(nbytes), allocator_(allocator), resizable_(resizable) {
  ST_CHECK(!resizable || allocator != nullptr, "Storage: a resizable storage needs an allocator");
}

StorageImpl::StorageImpl(detail::SmallDataBlock b, size_t nbytes, Allocator* allocator)
    : data_ptr_(detail::TensorStorageBlock::small_data(b.block, nbytes)),
      nbytes_(nbytes),
      allocator_(allocator),
      resizable_(true) {}

StorageImpl::~StorageImpl() = default;

void StorageImpl::destroy_self() noexcept {
  if (!in_block_) {
    delete this;
    return;
  }
  char* block = reinterpret_cast<char*>(this) - detail::TensorStorageBlock::kStorage;
  this->~StorageImpl();
  detail::TensorStorageBlock::part_ended(block);
}

void StorageImpl::resize(size_t new_nbytes) {
  ST_CHECK(resizable_,
           "Storage::resize: trying to resize storage that is not resizable "
           "(it wraps external memory), from ",
           nbytes_, " to ", new_nbytes, " bytes");
  if (new_nbytes == nbytes_) {
    return;
  }
  DataPtr fresh = allocator_->allocate(new_nbytes);
  const size_t keep = std::min(nbytes_, new_nbytes);
  if (keep > 0 && data_ptr_.get() != nullptr) {
    allocator_->copy_data(fresh.get(), data_ptr_.get(), keep);
  }
  data_ptr_ = std::move(fresh);
  nbytes_ = new_nbytes;
}

void StorageImpl::set_data_ptr(DataPtr data, size_t nbytes) {
  data_ptr_ = std::move(data);
  nbytes_ = nbytes;
}

Storage Storage::allocate(size_t nbytes, Device device) {
  return allocate(nbytes, get_allocator(device.type()));
}

Storage Storage::allocate(size_t nbytes, Allocator* allocator) {
  return Storage(make_intrusive<StorageImpl>(nbytes, allocator));
}

Storage Storage::from_blob(void* data, size_t nbytes, Device device) {
  ST_CHECK(data != nullptr || nbytes == 0,
           "Storage::from_blob: data is null "
           "but nbytes is ",
           nbytes);
  return Storage(make_intrusive<StorageImpl>(DataPtr(data, device), nbytes, nullptr, false));
}

Storage Storage::from_blob(void* data, size_t nbytes, Device device, void* context,
                           DeleterFn deleter) {
  ST_CHECK(data != nullptr || nbytes == 0,
           "Storage::from_blob: data is null "
           "but nbytes is ",
           nbytes);
  return Storage(
      make_intrusive<StorageImpl>(DataPtr(data, context, deleter, device), nbytes, nullptr, false));
}

}  // namespace st
