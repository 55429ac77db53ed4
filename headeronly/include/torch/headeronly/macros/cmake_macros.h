// Build-configuration switches PyTorch generates at build time; fixed here
// for this SDK: the runtime is a shared library, and none of glog, gflags,
// NUMA or ROCm kernel asserts are used.
// Header-only: depends on nothing.
#pragma once

#define C10_BUILD_SHARED_LIBS
