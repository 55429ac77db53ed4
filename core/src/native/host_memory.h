// Where the core's CPU kernels may run: on any memory the host can address,
// the CPU's or a host-accessible backend's (the host test backend runs the
// CPU kernels on its PrivateUse1 tensors; Note [Device runtime contract]).
// One check, one message, for every kernel that reads data pointers.
#pragma once

#include <st/core/device.h>
#include <st/core/tensor.h>

namespace st::native {

// Throws st::Error "<op>: expected <arg> in host memory ..., got device D"
// unless t's device is the CPU or a host-accessible backend's.
void check_host_memory(const Tensor& t, const char* op, const char* arg);

// Throws st::Error naming op, arg and both devices unless t is on `device`:
// the operands of one kernel share a device (as in PyTorch, no implicit
// copies between devices).
void check_same_device(const Tensor& t, Device device, const char* op, const char* arg);

}  // namespace st::native
