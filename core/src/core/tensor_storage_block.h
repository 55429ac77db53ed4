// The layout of the one allocation that holds a factory-made TensorImpl
// and its StorageImpl (Note [Tensor and storage in one block] in
// tensor_impl.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <new>

#include <st/core/storage.h>
#include <st/core/tensor_impl.h>

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

  static std::atomic<int>& parts(char* block) noexcept {
    return *std::launder(reinterpret_cast<std::atomic<int>*>(block + kParts));
  }

  // One of the two parts has been destroyed: the block is freed with the
  // second. A count of 1 means the other part is gone, so no other thread
  // can touch the count (the same reasoning as intrusive_ptr's decref).
  static void part_ended(char* block) noexcept {
    std::atomic<int>& n = parts(block);
    if (n.load(std::memory_order_acquire) == 1 || n.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      ::operator delete(block);
    }
  }
};

}  // namespace detail
}  // namespace st
