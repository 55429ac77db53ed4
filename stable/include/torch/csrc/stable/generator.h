// torch::stable::Generator (see generator_struct.h) with its members.
#pragma once

#include <torch/csrc/stable/generator_inl.h>
#include <torch/csrc/stable/generator_struct.h>
