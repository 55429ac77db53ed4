// Broadcasting shapes against each other, as PyTorch's infer_size.
#pragma once

#include <cstdint>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/export.h>

namespace st::native {

// The broadcast of two shapes; throws "The size of tensor a (3) must match
// the size of tensor b (4) at non-singleton dimension 1".
ST_API std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b);

}  // namespace st::native
