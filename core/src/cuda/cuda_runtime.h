// The CUDA device runtime (internal): devices, the current device, the
// per-thread current stream of each device, and the stream pools.
//
// Note [CUDA stream ids]
// id 0 is the device's default (legacy null) stream; ids 1..32 are the
// normal-priority pool and 33..64 the high-priority pool (created on first
// use, never destroyed, as c10's); any other id is an external stream
// (made current through the C ABI) whose id is its cudaStream_t value.
#pragma once

#include <cuda_runtime_api.h>

#include <st/device/device_runtime.h>

namespace st::cuda::detail {

DeviceRuntime& cuda_runtime();

// The cudaStream_t of a CUDA Stream (null for the default stream).
cudaStream_t native_stream(const Stream& stream);
// The current stream of the current device.
cudaStream_t current_native_stream();
// The Stream of a cudaStream_t (st::cuda::stream_from_native).
Stream stream_from_native(void* cuda_stream, DeviceIndex device);

}  // namespace st::cuda::detail
