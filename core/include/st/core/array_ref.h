// st::IntArrayRef: the non-owning list of sizes/strides/dims every core API
// takes. It is the headeronly HeaderOnlyArrayRef, so the stable layer and
// the core agree on one type.
#pragma once

#include <cstdint>

#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

namespace st {

template <typename T>
using ArrayRef = torch::headeronly::HeaderOnlyArrayRef<T>;

using IntArrayRef = torch::headeronly::HeaderOnlyArrayRef<int64_t>;

}  // namespace st
