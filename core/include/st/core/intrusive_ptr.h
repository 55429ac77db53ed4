// st::intrusive_ptr<T>: a shared pointer whose count lives in the object
// (T derives from st::intrusive_ptr_target). One pointer wide, so a Tensor
// is one word and copies are a single atomic increment.
//
// Ownership vocabulary (mirrors the C ABI's handle rules):
//   make_intrusive<T>(args...)        new object, count 1
//   intrusive_ptr<T>::reclaim(p)      adopt a reference the caller owns
//   intrusive_ptr<T>::unsafe_reclaim_from_nonowning(p)
//                                     take a new reference to a live object
//   ptr.release()                     give the reference up as a raw pointer
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include <st/core/export.h>

namespace st {

class ST_API intrusive_ptr_target {
 public:
  intrusive_ptr_target() noexcept = default;
  // Copying an object does not copy who owns it.
  intrusive_ptr_target(const intrusive_ptr_target&) noexcept {}
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) noexcept { return *this; }

  // Number of intrusive_ptrs (and released raw references) to this object.
  size_t use_count() const noexcept { return refcount_.load(std::memory_order_acquire); }

 protected:
  virtual ~intrusive_ptr_target() = default;

 private:
  template <typename T>
  friend class intrusive_ptr;

  // Ends the object once its last reference is gone. An object that shares
  // its allocation with another (TensorImpl::make_with_storage) overrides
  // it to free the allocation only when every part has ended.
  virtual void destroy_self() noexcept { delete this; }

  void incref() const noexcept { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // Returns true when this dropped the last reference.
  bool decref() const noexcept {
    // The sole owner needs no read-modify-write: nobody else can reach the
    // object to add a reference concurrently.
    if (refcount_.load(std::memory_order_acquire) == 1) {
      return true;
    }
    return refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

  mutable std::atomic<size_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
  static_assert(std::is_base_of_v<intrusive_ptr_target, T>,
                "intrusive_ptr<T> requires T to derive from "
                "st::intrusive_ptr_target");

 public:
  using element_type = T;

  constexpr intrusive_ptr() noexcept = default;
  constexpr intrusive_ptr(std::nullptr_t) noexcept {}

  intrusive_ptr(const intrusive_ptr& other) noexcept : target_(other.target_) {
    if (target_ != nullptr) {
      target_->incref();
    }
  }
  intrusive_ptr(intrusive_ptr&& other) noexcept : target_(other.target_) {
    other.target_ = nullptr;
  }
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  intrusive_ptr(const intrusive_ptr<U>& other) noexcept : target_(other.get()) {
    if (target_ != nullptr) {
      target_->incref();
    }
  }
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  intrusive_ptr(intrusive_ptr<U>&& other) noexcept : target_(other.release()) {}

  ~intrusive_ptr() { reset(); }

  intrusive_ptr& operator=(const intrusive_ptr& other) noexcept {
    intrusive_ptr(other).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& other) noexcept {
    intrusive_ptr(std::move(other)).swap(*this);
    return *this;
  }

  void reset() noexcept {
    if (target_ != nullptr && target_->decref()) {
      static_cast<intrusive_ptr_target*>(target_)->destroy_self();
    }
    target_ = nullptr;
  }
  void swap(intrusive_ptr& other) noexcept { std::swap(target_, other.target_); }

  T* get() const noexcept { return target_; }
  T& operator*() const noexcept { return *target_; }
  T* operator->() const noexcept { return target_; }
  explicit operator bool() const noexcept { return target_ != nullptr; }
  bool defined() const noexcept { return target_ != nullptr; }

  size_t use_count() const noexcept { return target_ == nullptr ? 0 : target_->use_count(); }
  bool unique() const noexcept { return use_count() == 1; }

  // Gives up this pointer's reference without dropping it; the caller
  // must hand it back through reclaim() eventually.
  [[nodiscard]] T* release() noexcept {
    T* t = target_;
    target_ = nullptr;
    return t;
  }

  // Adopts a reference previously given up by release() (or counted by
  // make_intrusive). Null gives an empty pointer.
  static intrusive_ptr reclaim(T* owning) noexcept {
    intrusive_ptr p;
    p.target_ = owning;
    return p;
  }

  // Takes a new reference to an object kept alive by someone else.
  static intrusive_ptr unsafe_reclaim_from_nonowning(T* borrowed) noexcept {
    intrusive_ptr p;
    p.target_ = borrowed;
    if (borrowed != nullptr) {
      borrowed->incref();
    }
    return p;
  }

  template <typename... Args>
  static intrusive_ptr make(Args&&... args) {
    intrusive_ptr p;
    p.target_ = new T(std::forward<Args>(args)...);
    p.target_->refcount_.store(1, std::memory_order_relaxed);
    return p;
  }

  // As make(), but constructs the object in `memory` (sized and aligned for
  // T). Only for a T whose destroy_self() releases that memory: the default
  // one would `delete` it.
  template <typename... Args>
  static intrusive_ptr make_at(void* memory, Args&&... args) {
    intrusive_ptr p;
    p.target_ = new (memory) T(std::forward<Args>(args)...);
    p.target_->refcount_.store(1, std::memory_order_relaxed);
    return p;
  }

 private:
  T* target_ = nullptr;
};

template <typename T, typename... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::make(std::forward<Args>(args)...);
}

template <typename T, typename U>
bool operator==(const intrusive_ptr<T>& a, const intrusive_ptr<U>& b) noexcept {
  return a.get() == b.get();
}
template <typename T, typename U>
bool operator!=(const intrusive_ptr<T>& a, const intrusive_ptr<U>& b) noexcept {
  return a.get() != b.get();
}
template <typename T>
bool operator==(const intrusive_ptr<T>& a, std::nullptr_t) noexcept {
  return a.get() == nullptr;
}
template <typename T>
bool operator!=(const intrusive_ptr<T>& a, std::nullptr_t) noexcept {
  return a.get() != nullptr;
}

}  // namespace st
