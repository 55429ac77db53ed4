// The host test backend's allocator (internal to the backend library).
#pragma once

#include <st/core/allocator.h>

namespace st::testing::detail {

// Host memory tagged with privateuseone:<current device>, counted per device.
Allocator* host_test_allocator();

}  // namespace st::testing::detail
