// The host test backend's device runtime (internal to the backend library).
#pragma once

#include <st/device/device_runtime.h>

namespace st::testing::detail {

DeviceRuntime* host_test_runtime();

}  // namespace st::testing::detail
