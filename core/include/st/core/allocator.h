// Allocators: one per device type, looked up in a process-wide registry.
// A DataPtr owns one allocation: the data pointer, a context pointer and
// the deleter that frees the context. The CPU allocator aligns to 64 bytes
// and keeps counters (bytes in use, peak, allocations) for leak tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include <st/core/device.h>
#include <st/core/export.h>

namespace st {

// Frees an allocation given its context pointer. Must not throw.
using DeleterFn = void (*)(void* context);

// Move-only owner of one allocation. The data pointer may differ from the
// context (an aligned pointer inside a larger block, a view into a blob
// owned by someone else); the deleter receives the context.
class ST_API DataPtr {
 public:
  DataPtr() noexcept : device_(DeviceType::CPU) {}
  explicit DataPtr(void* data, Device device) noexcept : data_(data), device_(device) {}
  DataPtr(void* data, void* context, DeleterFn deleter, Device device) noexcept
      : data_(data), context_(context), deleter_(deleter), device_(device) {}

  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept
      : data_(o.data_), context_(o.context_), deleter_(o.deleter_), device_(o.device_) {
    o.data_ = nullptr;
    o.context_ = nullptr;
    o.deleter_ = nullptr;
  }
  DataPtr& operator=(DataPtr&& o) noexcept {
    if (this != &o) {
      clear();
      data_ = o.data_;
      context_ = o.context_;
      deleter_ = o.deleter_;
      device_ = o.device_;
      o.data_ = nullptr;
      o.context_ = nullptr;
      o.deleter_ = nullptr;
    }
    return *this;
  }
  ~DataPtr() { clear(); }

  // Frees the allocation now (if owned) and becomes empty.
  void clear() noexcept {
    if (deleter_ != nullptr) {
      deleter_(context_);
    }
    data_ = nullptr;
    context_ = nullptr;
    deleter_ = nullptr;
  }

  void* get() const noexcept { return data_; }
  void* context() const noexcept { return context_; }
  DeleterFn deleter() const noexcept { return deleter_; }
  Device device() const noexcept { return device_; }
  explicit operator bool() const noexcept { return data_ != nullptr; }

  // Gives up ownership: returns the context; the caller must now free it.
  [[nodiscard]] void* release_context() noexcept {
    void* c = context_;
    context_ = nullptr;
    deleter_ = nullptr;
    return c;
  }

 private:
  void* data_ = nullptr;
  void* context_ = nullptr;
  DeleterFn deleter_ = nullptr;
  Device device_;
};

class ST_API Allocator {
 public:
  virtual ~Allocator();
  // Returns an owning DataPtr for nbytes bytes. nbytes == 0 may give an
  // empty DataPtr. Throws st::Error when out of memory.
  virtual DataPtr allocate(size_t nbytes) = 0;
  // Copies nbytes between two allocations of this allocator's device.
  virtual void copy_data(void* dst, const void* src, size_t nbytes) const = 0;
};

// Registry. set_allocator replaces the allocator of a device type (the
// allocator must outlive every allocation it made and every later lookup;
// null is refused). get_allocator throws st::Error when none is registered.
ST_API void set_allocator(DeviceType type, Allocator* allocator);
ST_API Allocator* get_allocator(DeviceType type);
// Null when no allocator is registered for the type.
ST_API Allocator* try_get_allocator(DeviceType type) noexcept;

// The built-in CPU allocator (64-byte aligned, counted).
ST_API Allocator* cpu_allocator() noexcept;
constexpr size_t kCpuAlignment = 64;

struct AllocatorStats {
  int64_t bytes_in_use = 0;      // bytes currently allocated
  int64_t peak_bytes = 0;        // high-water mark of bytes_in_use
  int64_t allocation_count = 0;  // allocations made since start
  int64_t live_allocations = 0;  // allocations not yet freed
};

// Counters of the built-in CPU allocator. Thread-safe.
ST_API AllocatorStats cpu_allocator_stats() noexcept;
// Sets the peak to the current bytes in use.
ST_API void reset_cpu_allocator_peak() noexcept;

}  // namespace st
