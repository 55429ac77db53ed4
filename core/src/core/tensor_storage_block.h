// The layout of the one allocation that holds a factory-made TensorImpl
// and its StorageImpl (Note [Tensor and storage in one block] in
// tensor_impl.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include <st/core/allocator.h>
#include <st/core/storage.h>
#include <st/core/tensor_impl.h>

#include "cpu_allocator_counters.h"

namespace st {
namespace detail {

constexpr size_t round_up_to(size_t n, size_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

struct TensorStorageBlock {
  static constexpr size_t kStorage = 0;
  static constexpr size_t kTensor = round_up_to(sizeof(StorageImpl), alignof(TensorImpl));
  static constexpr size_t kParts =
      round_up_to(kTensor + sizeof(TensorImpl), alignof(std::atomic<int>));
  static constexpr size_t kSize = kParts + sizeof(std::atomic<int>);
  static_assert(alignof(StorageImpl) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
                    alignof(TensorImpl) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                "operator new must align both parts");

  // A block with small data (Note [Small data in the block] in
  // tensor_impl.cpp) adds, after the count: the data's size in bytes (for
  // the CPU allocator's counters), then room for kSmallDataBytes at the
  // CPU allocator's alignment, whatever operator new's alignment was.
  static constexpr size_t kSmallDataBytes = 64;
  static constexpr size_t kDataNbytes = round_up_to(kSize, alignof(size_t));
  static constexpr size_t kSizeWithData = kDataNbytes + sizeof(size_t) +
                                          (kCpuAlignment - __STDCPP_DEFAULT_NEW_ALIGNMENT__) +
                                          kSmallDataBytes;

  static std::atomic<int>& parts(char* block) noexcept {
    return *std::launder(reinterpret_cast<std::atomic<int>*>(block + kParts));
  }

  // One of the parts (two, three with small data) has ended: the block is
  // freed with the last. A count of 1 means the others are gone, so no
  // other thread can touch the count (the same reasoning as intrusive_ptr's decref).
  static void part_ended(char* block) noexcept {
    std::atomic<int>& n = parts(block);
    if (n.load(std::memory_order_acquire) == 1 || n.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      ::operator delete(block);
    }
  }

  // The small data of a block allocated with kSizeWithData: records nbytes
  // (at most kSmallDataBytes) and counts the allocation. The data is the
  // block's third part; the DataPtr's deleter ends it.
  static DataPtr small_data(char* block, size_t nbytes) noexcept {
    std::memcpy(block + kDataNbytes, &nbytes, sizeof(nbytes));
    const uintptr_t first = reinterpret_cast<uintptr_t>(block + kDataNbytes + sizeof(size_t));
    char* data = block + (round_up_to(first, kCpuAlignment) - reinterpret_cast<uintptr_t>(block));
    count_cpu_allocation(nbytes);
    return DataPtr(data, block, &small_data_ended, Device(DeviceType::CPU));
  }

  static void small_data_ended(void* context) noexcept {
    char* block = static_cast<char*>(context);
    size_t nbytes = 0;
    std::memcpy(&nbytes, block + kDataNbytes, sizeof(nbytes));
    count_cpu_free(nbytes);
    part_ended(block);
  }

  // Whether `storage` holds the small data of `block`.
  static bool holds_small_data(const StorageImpl& storage, char* block) noexcept {
    return storage.data_ptr().deleter() == &small_data_ended &&
           storage.data_ptr().context() == block;
  }
};

}  // namespace detail
}  // namespace st
