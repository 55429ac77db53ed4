#include "host_memory.h"

#include <st/core/error.h>
#include <st/device/device_runtime.h>

namespace st::native {

void check_host_memory(const Tensor& t, const char* op, const char* arg) {
  ST_CHECK(is_host_accessible(t.device()), op, ": expected ", arg,
           " in host memory (the CPU or a host-accessible backend), got device ", t.device());
}

void check_same_device(const Tensor& t, Device device, const char* op, const char* arg) {
  ST_CHECK(t.device() == device, op, ": expected ", arg, " on device ", device,
           " like the other operands, got device ", t.device());
}

}  // namespace st::native
