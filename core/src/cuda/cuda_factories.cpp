// arange and rand/randn on CUDA (empty and empty_strided reuse the core's
// device-generic kernels, which allocate from the CUDA caching allocator).

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/generator.h>
#include <st/core/result_type.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/native/arange_length.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {

Tensor arange_out(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out) {
  detail::check_cuda(out, "arange", "out");
  const ScalarType dt = out.dtype();
  ST_CHECK(dt != ScalarType::Bool && !torch::headeronly::isComplexType(dt),
           "\"arange_cuda\" not implemented for '", torch::headeronly::toString(dt), "'");
  const int64_t size = st::native::arange_length(start, end, step, dt);
  const double xstart = start.toComplexDouble().real();
  const double xstep = step.toComplexDouble().real();
  DeviceGuard guard(out.device());
  st::native::resize_output(out, {size});
  if (size == 0) return out;
  Tensor result = out.is_contiguous() ? out : st::detail::empty_generic({size}, dt, out.device());
  detail::check_launch(kernels::arange(result.data_ptr(), detail::kernel_dtype(dt, "arange"),
                                       xstart, xstep, size, detail::current_native_stream()),
                       "arange");
  if (!result.is_same(out)) ops::copy_(out, result, false);
  return out;
}

Tensor random(bool normal, IntArrayRef size, std::optional<ScalarType> dtype,
              std::optional<Device> device) {
  const char* name = normal ? "randn" : "rand";
  const ScalarType dt = dtype.value_or(default_dtype());
  ST_CHECK(torch::headeronly::isFloatingType(dt), name, ": expected a floating dtype, got ",
           torch::headeronly::toString(dt));
  const Device d = resolve_device(device.value_or(Device(DeviceType::CUDA)), name);
  DeviceGuard guard(d);
  Tensor out = st::detail::empty_generic(size, dt, d);
  const int64_t n = out.numel();
  if (n == 0) return out;
  // The counters come from the default generator, as the CPU kernels', so
  // manual_seed makes CUDA draws reproducible too (not equal to the CPU's).
  const auto range =
      default_cpu_generator().cpu()->philox_reserve(static_cast<uint64_t>((n + 3) / 4));
  detail::check_launch(
      kernels::random(normal, out.data_ptr(), detail::kernel_dtype(dt, name), n, range.seed,
                      range.counter, /*a=*/0.0, /*b=*/1.0, detail::current_native_stream()),
      name);
  return out;
}

}  // namespace st::cuda::ops
