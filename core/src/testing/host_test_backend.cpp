#include <st/testing/host_test_backend.h>

#include <memory>
#include <mutex>

#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/dispatch/library.h>

#include "host_test_allocator.h"
#include "host_test_runtime.h"

namespace st::testing {
namespace {

// The first PrivateUse1 device among the operator's arguments: a tensor's
// or, for factories, a Device argument's.
std::optional<Device> device_of_arguments(const OperatorHandle& op, const Stack& stack) {
  const size_t n = op.schema().arguments().size();
  const size_t first = stack.size() >= n ? stack.size() - n : 0;
  for (size_t i = first; i < stack.size(); ++i) {
    const IValue& v = stack[i];
    if (v.isTensor() && v.toTensor().defined() &&
        v.toTensor().device().type() == DeviceType::PrivateUse1) {
      return v.toTensor().device();
    }
    if (v.isDevice() && v.toDevice().type() == DeviceType::PrivateUse1) return v.toDevice();
  }
  return std::nullopt;
}

// Note [Host test backend kernels]
// Every operator without a PrivateUse1 (or composite) kernel of its own
// lands here: the device of its arguments is made current (as PyTorch's
// generated wrappers do for device kernels) and the CPU kernel runs on the
// host memory the tensors live in.
void run_cpu_kernel(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const std::optional<Device> device = device_of_arguments(op, *stack);
  if (device && device->has_index()) {
    check_device_index(DeviceType::PrivateUse1, device->index(), op.operatorName().name.c_str());
  }
  DeviceGuard guard(device.value_or(Device(DeviceType::PrivateUse1)));
  op.redispatchBoxed(DispatchKeySet(DispatchKey::CPU), stack);
}

}  // namespace

void register_host_test_backend() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_device_runtime(detail::host_test_runtime());
    set_allocator(DeviceType::PrivateUse1, detail::host_test_allocator());
    // Never destroyed: the fallback stays registered until the process ends.
    static Library* lib =
        new Library(Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
    lib->fallback(CppFunction(&run_cpu_kernel));
  });
}

}  // namespace st::testing
