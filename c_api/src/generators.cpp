// AtenGeneratorHandle: one owning reference (st::Generator) to a core
// random-number generator.
#include <st/core/generator.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"

namespace {

AtenGeneratorHandle new_generator_handle(const st::Generator& g) {
  return stc::to_handle<AtenGeneratorHandle>(stc::make_handle<st::Generator>(g));
}

// Only CPU generators exist in the core.
void check_cpu_device_type(int32_t device_type, const char* what) {
  const st::Device d = stc::device_from_codes(device_type, -1, what);
  ST_CHECK(d.is_cpu(), what, ": only CPU generators exist, got device type ", d.type());
}

}  // namespace

extern "C" {

// The torch_* functions are declared in a version block newer than these
// headers' own level, so the declaration is not visible here: export the
// definitions explicitly.

AOTI_TORCH_EXPORT AOTITorchError
torch_new_generator_handle(AtenGeneratorHandle self, AtenGeneratorHandle* ret_new_generator) {
  STC_API_BEGIN
  stc::check_out(ret_new_generator, "ret_new_generator");
  const st::Generator& g = stc::get<st::Generator>(self, "self");
  *ret_new_generator = new_generator_handle(g);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_delete_generator(AtenGeneratorHandle generator) {
  STC_API_BEGIN
  if (generator == nullptr) return AOTI_TORCH_SUCCESS;
  stc::destroy<st::Generator>(generator, "generator");
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_generator_get_device(AtenGeneratorHandle generator,
                                                            int32_t* ret_device_type,
                                                            int32_t* ret_device_index) {
  STC_API_BEGIN
  stc::check_out(ret_device_type, "ret_device_type");
  stc::check_out(ret_device_index, "ret_device_index");
  const st::Device d = stc::get<st::Generator>(generator, "generator").device();
  *ret_device_type = static_cast<int32_t>(d.type());
  *ret_device_index = static_cast<int32_t>(d.index());
  STC_API_END
}

AOTITorchError stabletorch_new_generator(int32_t device_type, uint64_t seed,
                                         AtenGeneratorHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  check_cpu_device_type(device_type, "device_type");
  *ret = new_generator_handle(st::make_cpu_generator(seed));
  STC_API_END
}

AOTITorchError stabletorch_default_generator(int32_t device_type, AtenGeneratorHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  check_cpu_device_type(device_type, "device_type");
  *ret = new_generator_handle(st::default_cpu_generator());
  STC_API_END
}

AOTITorchError stabletorch_generator_manual_seed(AtenGeneratorHandle generator, uint64_t seed) {
  STC_API_BEGIN
  stc::get<st::Generator>(generator, "generator")->set_current_seed(seed);
  STC_API_END
}

AOTITorchError stabletorch_generator_initial_seed(AtenGeneratorHandle generator,
                                                  uint64_t* ret_seed) {
  STC_API_BEGIN
  stc::check_out(ret_seed, "ret_seed");
  *ret_seed = stc::get<st::Generator>(generator, "generator")->current_seed();
  STC_API_END
}

AOTITorchError stabletorch_generator_seed(AtenGeneratorHandle generator, uint64_t* ret_seed) {
  STC_API_BEGIN
  stc::check_out(ret_seed, "ret_seed");
  *ret_seed = stc::get<st::Generator>(generator, "generator")->seed();
  STC_API_END
}

}  // extern "C"
