// The C functions the conformance driver calls, resolved by name with dlsym
// from whichever runtime it loaded (PyTorch's libtorch_cpu.so or
// libstabletorch.so). The function-pointer types are written from the
// documented signatures of the stable C ABI; the driver includes no runtime
// header so that one binary serves both runtimes.
#ifndef STABLETORCH_CONFORMANCE_RUNTIME_API_H
#define STABLETORCH_CONFORMANCE_RUNTIME_API_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace conformance {

using StableIValue = uint64_t;
using Error = int32_t;  // AOTITorchError: 0 is success
using Handle = void*;   // AtenTensorHandle, StableListHandle, StringHandle, AtenGeneratorHandle

struct RuntimeApi {
  // Operator calls.
  Error (*call_dispatcher)(const char*, const char*, StableIValue*) = nullptr;
  Error (*call_dispatcher_v)(const char*, const char*, StableIValue*,
                             uint64_t) = nullptr;  // may be absent
  const char* (*exception_what)() = nullptr;       // may be absent
  Error (*get_num_threads)(uint32_t*) = nullptr;   // may be absent

  // Tensors.
  Error (*empty_strided)(int64_t, const int64_t*, const int64_t*, int32_t, int32_t, int32_t,
                         Handle*) = nullptr;
  Error (*reinterpret_tensor)(Handle, int64_t, const int64_t*, const int64_t*, int64_t,
                              Handle*) = nullptr;
  Error (*delete_tensor)(Handle) = nullptr;
  Error (*new_tensor_handle)(Handle, Handle*) = nullptr;
  Error (*is_defined)(Handle, bool*) = nullptr;
  Error (*get_data_ptr)(Handle, void**) = nullptr;
  Error (*get_dim)(Handle, int64_t*) = nullptr;
  Error (*get_sizes)(Handle, int64_t**) = nullptr;
  Error (*get_strides)(Handle, int64_t**) = nullptr;
  Error (*get_dtype)(Handle, int32_t*) = nullptr;
  Error (*get_storage_offset)(Handle, int64_t*) = nullptr;

  // Lists, strings and heap slots (the 2.10 StableIValue encodings).
  Error (*new_list)(size_t, Handle*) = nullptr;
  Error (*list_push_back)(Handle, StableIValue) = nullptr;
  Error (*list_size)(Handle, size_t*) = nullptr;
  Error (*list_get_item)(Handle, size_t, StableIValue*) = nullptr;
  Error (*delete_list)(Handle) = nullptr;
  Error (*new_string)(const char*, size_t, Handle*) = nullptr;
  Error (*string_length)(Handle, size_t*) = nullptr;
  Error (*string_c_str)(Handle, const char**) = nullptr;
  Error (*delete_string)(Handle) = nullptr;
  Error (*new_stable_ivalue)(StableIValue**) = nullptr;
  Error (*delete_stable_ivalue)(StableIValue*) = nullptr;

  // Generators. Neither runtime's stable ABI makes one (extensions only
  // receive them), so each runtime's own constructor of a seeded CPU
  // generator is used: stabletorch_new_generator, or PyTorch's C++
  // at::detail::createCPUGenerator(uint64_t), whose at::Generator result
  // (one intrusive pointer, not trivially copyable) comes back through a
  // hidden result pointer, passed first. One of the two is present.
  Error (*new_generator)(int32_t, uint64_t, Handle*) = nullptr;         // stabletorch
  void (*create_cpu_generator)(void* result, uint64_t seed) = nullptr;  // PyTorch
  Error (*delete_generator)(Handle) = nullptr;  // may be absent (levels before 2.13)

  // Operator registration (the PROBE boxed_noop operator). May be absent.
  using BoxedKernel = void (*)(StableIValue*, uint64_t, uint64_t);
  Error (*library_init_def)(const char*, const char*, uint32_t, Handle*) = nullptr;
  Error (*library_init_impl)(const char*, const char*, const char*, uint32_t, Handle*) = nullptr;
  Error (*library_def)(Handle, const char*) = nullptr;
  Error (*library_impl)(Handle, const char*, BoxedKernel) = nullptr;
  Error (*delete_library)(Handle) = nullptr;

  // stabletorch's plugin loader (the PROBE load: probe); absent in PyTorch,
  // whose way of loading a plugin is a plain dlopen.
  Error (*load_library)(const char*, Handle*) = nullptr;
  Error (*unload_library)(Handle) = nullptr;

  // Enum codes, read from the runtime rather than assumed.
  int32_t (*device_type_cpu)() = nullptr;
  int32_t (*layout_strided)() = nullptr;
  int32_t (*memory_format_contiguous)() = nullptr;
  int32_t (*memory_format_preserve)() = nullptr;
  int32_t (*memory_format_channels_last)() = nullptr;
};

// Resolves every function from `library` (a dlopen handle). Returns "" on
// success, else the name of the first required function that is missing.
std::string resolve_runtime_api(void* library, RuntimeApi& api);

// The dtype codes of the runtime, by the short names cases use
// ("f32", "i64", "b", ...). Returns false for a name the runtime lacks.
bool dtype_code(void* library, const std::string& name, int32_t& code);
// The short name of a code; "dtype<code>" when unknown.
std::string dtype_name(void* library, int32_t code);

}  // namespace conformance

#endif  // STABLETORCH_CONFORMANCE_RUNTIME_API_H
