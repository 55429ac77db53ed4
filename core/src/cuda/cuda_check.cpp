#include "cuda_check.h"

#include <st/core/error.h>
#include <st/cuda/cuda_backend.h>

namespace st::cuda {
namespace detail {

void throw_cuda_error(cudaError_t error, const char* expr, const char* file, int line) {
  (void)cudaGetLastError();  // clear the sticky-free error state for the next call
  ST_ERROR("CUDA error: ", cudaGetErrorString(error), " (", cudaGetErrorName(error), ", code ",
           static_cast<int>(error), ") in ", expr, " at ", file, ":", line);
}

std::string check_message(int32_t error, const char* file, const char* function, uint32_t line,
                          bool include_device_assertions) {
  const auto err = static_cast<cudaError_t>(error);
  if (err == cudaSuccess) return std::string();
  std::string msg = "CUDA error: ";
  msg += cudaGetErrorString(err);
  msg += "\nSearch for `";
  msg += cudaGetErrorName(err);
  msg +=
      "' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more "
      "information.";
  if (include_device_assertions) {
    msg += "\nDevice-side assertions are not recorded by this core.";
  }
  msg += "\nException raised from ";
  msg += function != nullptr ? function : "<unknown function>";
  msg += " at ";
  msg += file != nullptr ? file : "<unknown file>";
  msg += ":";
  msg += std::to_string(line);
  return msg;
}

}  // namespace detail
}  // namespace st::cuda
