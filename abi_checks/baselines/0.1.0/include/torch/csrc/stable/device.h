// torch::stable::Device (see device_struct.h).
#pragma once

#include <torch/csrc/stable/device_inl.h>
#include <torch/csrc/stable/device_struct.h>
