// The host test backend: a PrivateUse1 device backend whose memory is host
// memory, so the device-generic paths (device guards, stream selection,
// cross-device copies, dispatch to a non-CPU key, the C ABI's device and
// stream functions) run in CI without a GPU.
//
//   - two devices, privateuseone:0 and privateuseone:1;
//   - memory from a counting host allocator (stats per device);
//   - streams are counters: id 0 is each device's default stream, ids 1-4
//     the normal-priority pool and 5-8 the high-priority pool;
//     synchronizing a stream counts the call;
//   - kernels: a PrivateUse1 backend fallback makes the tensor's device
//     current and runs the operator's CPU kernel (legal because the memory
//     is host memory, Note [Device runtime contract]).
//
// Not part of libstabletorch_core: tests link the small static library
// stabletorch_host_test_backend and call register_host_test_backend().
#pragma once

#include <cstdint>

#include <st/core/allocator.h>
#include <st/core/device.h>
#include <st/device/stream.h>

namespace st::testing {

constexpr DeviceIndex kHostTestDeviceCount = 2;
constexpr StreamId kHostTestPoolSize = 4;

// Registers the allocator, the device runtime and the kernel fallback for
// PrivateUse1. Idempotent and thread-safe. Throws st::Error when another
// PrivateUse1 runtime is already registered.
void register_host_test_backend();

// Allocation counters of one fake device (thread-safe).
AllocatorStats host_test_allocator_stats(DeviceIndex device);

// How many times synchronize_stream reached the runtime for this stream
// (synchronize_device counts for every stream of the device).
int64_t host_test_sync_count(const Stream& stream);

}  // namespace st::testing
