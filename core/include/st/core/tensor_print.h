// Printing tensors the way PyTorch does:
//   tensor([[1., 2.],
//           [3., 4.]])
//   tensor([1, 2, 3], dtype=stabletorch.int32)
//   tensor([ 0.,  1.,  2.,  ..., 97., 98., 99.])   (summarised when large)
// The dtype suffix is left out for the default dtypes (float32, int64,
// bool, complex64); the device suffix for CPU.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st {

struct PrintOptions {
  int precision = 4;         // digits after the point
  int64_t threshold = 1000;  // summarise above this many elements
  int64_t edgeitems = 3;     // items kept at each end when summarising
  int64_t linewidth = 80;
};

ST_API void print(std::ostream& os, const Tensor& tensor,
                  const PrintOptions& options = PrintOptions());
ST_API std::string to_string(const Tensor& tensor, const PrintOptions& options = PrintOptions());
ST_API std::ostream& operator<<(std::ostream& os, const Tensor& tensor);

// "stabletorch.float32", "stabletorch.int64", ...: the dtypes' names in
// the Python package (PyTorch's names under the package's).
ST_API std::string dtype_python_name(ScalarType dtype);

}  // namespace st
