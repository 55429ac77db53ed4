// Kept for source compatibility with PyTorch's split of Device into
// device_struct.h and device_inl.h: here every definition already lives in
// device_struct.h, so either header (or device.h) is enough.
#pragma once

#include <torch/csrc/stable/device_struct.h>
