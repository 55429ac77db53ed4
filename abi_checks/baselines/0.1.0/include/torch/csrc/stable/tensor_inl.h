// Kept for source compatibility with PyTorch's split of Tensor into
// tensor_struct.h and tensor_inl.h: every member is defined in
// tensor_struct.h; this adds the StableIValue conversions PyTorch's
// tensor_inl.h brings along.
#pragma once

#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor_struct.h>
