#include "cuda_runtime.h"

#include <array>
#include <cstring>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include <st/core/error.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/device_guard.h>

#include "cuda_check.h"

namespace st::cuda {
namespace detail {
namespace {

constexpr StreamId kPool = kStreamsPerPool;
constexpr StreamId kLastPoolId = 2 * kPool;

struct DevicePools {
  std::once_flag created;
  std::array<cudaStream_t, 2 * kStreamsPerPool> streams{};  // normal, then high priority
  std::atomic<uint32_t> next_normal{0};
  std::atomic<uint32_t> next_high{0};
};

// Per thread: the current stream id of each device (default 0).
thread_local std::vector<StreamId> t_current;

Device cuda_device(DeviceIndex i) { return Device(DeviceType::CUDA, i); }

class CudaRuntime final : public DeviceRuntime {
 public:
  DeviceType type() const noexcept override { return DeviceType::CUDA; }

  DeviceIndex device_count() const noexcept override {
    static const DeviceIndex count = [] {
      int n = 0;
      if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();  // no driver or no device: zero devices
        return DeviceIndex{0};
      }
      return static_cast<DeviceIndex>(n > 127 ? 127 : n);
    }();
    return count;
  }
  bool host_accessible() const noexcept override { return false; }

  DeviceIndex current_device() const override {
    int d = 0;
    ST_CUDA_CHECK(cudaGetDevice(&d));
    return static_cast<DeviceIndex>(d);
  }
  void set_device(DeviceIndex index) override { ST_CUDA_CHECK(cudaSetDevice(index)); }
  void set_device_noexcept(DeviceIndex index) noexcept override {
    if (cudaSetDevice(index) != cudaSuccess) (void)cudaGetLastError();
  }

  Stream current_stream(DeviceIndex index) const override {
    const auto i = static_cast<size_t>(index);
    return Stream(cuda_device(index), i < t_current.size() ? t_current[i] : Stream::kDefaultId);
  }
  Stream default_stream(DeviceIndex index) const override {
    return Stream(cuda_device(index), Stream::kDefaultId);
  }
  Stream stream_from_pool(DeviceIndex index, bool high_priority) override {
    DevicePools& p = pools(index);
    std::atomic<uint32_t>& next = high_priority ? p.next_high : p.next_normal;
    const StreamId k = static_cast<StreamId>(next.fetch_add(1, std::memory_order_relaxed) %
                                             static_cast<uint32_t>(kPool));
    return Stream(cuda_device(index), 1 + k + (high_priority ? kPool : 0));
  }
  void set_current_stream(const Stream& stream) override {
    ST_CHECK(stream.id() >= 0, "set_current_stream: ", stream, " is not a CUDA stream");
    if (stream.id() >= 1 && stream.id() <= kLastPoolId) pools(stream.device_index());
    set_current_stream_noexcept(stream);
  }
  void set_current_stream_noexcept(const Stream& stream) noexcept override {
    const auto i = static_cast<size_t>(stream.device_index());
    if (t_current.size() <= i) {
      try {
        t_current.resize(static_cast<size_t>(device_count()), Stream::kDefaultId);
      } catch (...) {
        return;  // cannot happen after the first set_current_stream on this thread
      }
    }
    t_current[i] = stream.id();
  }
  void synchronize_stream(const Stream& stream) override {
    DeviceGuard guard(stream.device());
    ST_CUDA_CHECK(cudaStreamSynchronize(native(stream)));
  }
  bool query_stream(const Stream& stream) override {
    DeviceGuard guard(stream.device());
    const cudaError_t err = cudaStreamQuery(native(stream));
    if (err == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    ST_CUDA_CHECK(err);
    return true;
  }
  void synchronize_device(DeviceIndex index) override {
    DeviceGuard guard(cuda_device(index));
    ST_CUDA_CHECK(cudaDeviceSynchronize());
  }
  void* native_stream_handle(const Stream& stream) const override {
    return static_cast<void*>(native(stream));
  }

  cudaStream_t native(const Stream& stream) const {
    const StreamId id = stream.id();
    if (id == Stream::kDefaultId) return nullptr;
    if (id >= 1 && id <= kLastPoolId) {
      return pools(stream.device_index()).streams[static_cast<size_t>(id - 1)];
    }
    cudaStream_t s = nullptr;
    const auto bits = static_cast<uintptr_t>(id);
    static_assert(sizeof(s) == sizeof(bits), "cudaStream_t is a pointer");
    std::memcpy(&s, &bits, sizeof(s));
    return s;
  }

  // The pools of a device, created on first use.
  DevicePools& pools(DeviceIndex index) const {
    std::call_once(pools_once_, [this] {
      pools_ = std::make_unique<DevicePools[]>(static_cast<size_t>(device_count()));
    });
    DevicePools& p = pools_[static_cast<size_t>(index)];
    std::call_once(p.created, [&] {
      DeviceGuard guard(cuda_device(index));
      int least = 0;
      int greatest = 0;
      ST_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      for (size_t k = 0; k < p.streams.size(); ++k) {
        const int priority = k < static_cast<size_t>(kPool) ? least : greatest;
        ST_CUDA_CHECK(cudaStreamCreateWithPriority(&p.streams[k], cudaStreamNonBlocking, priority));
      }
    });
    return p;
  }

 private:
  mutable std::once_flag pools_once_;
  mutable std::unique_ptr<DevicePools[]> pools_;
};

// A function-local static: other translation units register it during
// static initialisation.
CudaRuntime& runtime() {
  static CudaRuntime r;
  return r;
}

}  // namespace

DeviceRuntime& cuda_runtime() { return runtime(); }

cudaStream_t native_stream(const Stream& stream) { return runtime().native(stream); }

cudaStream_t current_native_stream() {
  CudaRuntime& r = runtime();
  return r.native(r.current_stream(r.current_device()));
}

Stream stream_from_native(void* cuda_stream, DeviceIndex device) {
  check_device_index(DeviceType::CUDA, device, "stream_from_native");
  if (cuda_stream == nullptr) return Stream(Device(DeviceType::CUDA, device), Stream::kDefaultId);
  const DevicePools& p = runtime().pools(device);
  for (size_t k = 0; k < p.streams.size(); ++k) {
    if (static_cast<void*>(p.streams[k]) == cuda_stream) {
      return Stream(Device(DeviceType::CUDA, device), static_cast<StreamId>(k) + 1);
    }
  }
  uintptr_t bits = 0;
  std::memcpy(&bits, &cuda_stream, sizeof(bits));
  return Stream(Device(DeviceType::CUDA, device), static_cast<StreamId>(bits));
}

}  // namespace detail
}  // namespace st::cuda
