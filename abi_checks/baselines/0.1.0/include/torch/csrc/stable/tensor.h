// torch::stable::Tensor (see tensor_struct.h) with its conversions.
#pragma once

#include <torch/csrc/stable/tensor_inl.h>
#include <torch/csrc/stable/tensor_struct.h>
