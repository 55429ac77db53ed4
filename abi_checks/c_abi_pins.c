/*
 * Check 3b: the numbers the C ABI exposes, pinned from C.
 *
 * Compiled as C11 (-Wall -Wextra -Werror -pedantic) and linked to
 * libstabletorch. At compile time, _Static_assert pins handle sizes, the
 * StableIValue width, error codes, the scalar read-out layouts, the plugin
 * descriptor layout and the version constants. At run time it calls every
 * code getter and compares the answer with the c10 ordinal written here as a
 * number: a core that renumbers a dtype, device type, layout or memory
 * format breaks every plugin built before, and this program names it.
 *
 * Exit status 0 when every value matches; 1 with one line per mismatch.
 */
#include <stabletorch/c/loader.h>
#include <stabletorch/c/plugin_descriptor.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

/* ---- Compile-time pins ------------------------------------------------ */

#define PIN_HANDLE(T) _Static_assert(sizeof(T) == sizeof(void*), #T " must stay one pointer")
PIN_HANDLE(AtenTensorHandle);
PIN_HANDLE(AtenGeneratorHandle);
PIN_HANDLE(AOTIProxyExecutorHandle);
PIN_HANDLE(C10IValueHandle);
PIN_HANDLE(TorchLibraryHandle);
PIN_HANDLE(DeviceGuardHandle);
PIN_HANDLE(StreamHandle);
PIN_HANDLE(CUDAGuardHandle);
PIN_HANDLE(CUDAStreamGuardHandle);
PIN_HANDLE(StableScalarHandle);
PIN_HANDLE(StableTorchPluginHandle);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
PIN_HANDLE(StableListHandle);
PIN_HANDLE(StringHandle);
PIN_HANDLE(ParallelFunc);
#endif
#undef PIN_HANDLE

_Static_assert(sizeof(StableIValue) == 8, "StableIValue is 64 bits wide");
_Static_assert((StableIValue)-1 > 0, "StableIValue is unsigned");
_Static_assert(sizeof(AOTITorchError) == 4, "AOTITorchError is int32_t");
_Static_assert(AOTI_TORCH_SUCCESS == 0, "AOTI_TORCH_SUCCESS is 0");
_Static_assert(AOTI_TORCH_FAILURE == 1, "AOTI_TORCH_FAILURE is 1");

_Static_assert(sizeof(AOTITorchHalf) == 2, "AOTITorchHalf is 16 bits");
_Static_assert(sizeof(AOTITorchBFloat16) == 2, "AOTITorchBFloat16 is 16 bits");
_Static_assert(sizeof(AOTITorchComplex64) == 8 && alignof(AOTITorchComplex64) == 8,
               "AOTITorchComplex64 is two floats, 8-aligned");
_Static_assert(sizeof(AOTITorchComplex128) == 16 && alignof(AOTITorchComplex128) == 16,
               "AOTITorchComplex128 is two doubles, 16-aligned");
_Static_assert(offsetof(AOTITorchComplex64, imag_) == 4, "complex64: real then imag");
_Static_assert(offsetof(AOTITorchComplex128, imag_) == 8, "complex128: real then imag");

_Static_assert(STABLETORCH_SCALAR_BOOL == 0, "scalar kind codes are ABI");
_Static_assert(STABLETORCH_SCALAR_INT == 1, "scalar kind codes are ABI");
_Static_assert(STABLETORCH_SCALAR_DOUBLE == 2, "scalar kind codes are ABI");
_Static_assert(STABLETORCH_SCALAR_COMPLEX == 3, "scalar kind codes are ABI");

_Static_assert(STABLETORCH_PLUGIN_DESCRIPTOR_VERSION == 1, "descriptor version 1");
_Static_assert(sizeof(STABLETORCH_PLUGIN_MAGIC) == 17, "magic is 16 bytes");
_Static_assert(sizeof(StableTorchPluginDescriptor) == 48, "descriptor v1 is 48 bytes");
_Static_assert(offsetof(StableTorchPluginDescriptor, descriptor_version) == 16,
               "descriptor layout");
_Static_assert(offsetof(StableTorchPluginDescriptor, descriptor_size) == 20, "descriptor layout");
_Static_assert(offsetof(StableTorchPluginDescriptor, target_abi_version) == 24,
               "descriptor layout");
_Static_assert(offsetof(StableTorchPluginDescriptor, build_abi_version) == 32, "descriptor layout");
_Static_assert(offsetof(StableTorchPluginDescriptor, sdk_version_number) == 40,
               "descriptor layout");
_Static_assert(offsetof(StableTorchPluginDescriptor, reserved) == 44, "descriptor layout");

_Static_assert(TORCH_VERSION_2_9_0 == 0x0209000000000000ULL, "level encoding (2.9)");
_Static_assert(TORCH_VERSION_2_10_0 == 0x020A000000000000ULL, "level encoding (2.10)");
_Static_assert(TORCH_VERSION_2_11_0 == 0x020B000000000000ULL, "level encoding (2.11)");
_Static_assert(TORCH_VERSION_2_13_0 == 0x020D000000000000ULL, "level encoding (2.13)");
/* The first release (0.1.0) claimed 2.10; a later release never claims less. */
_Static_assert(TORCH_ABI_VERSION >= TORCH_VERSION_2_10_0, "stable-ABI level never decreases");

/* ---- Run-time pins: code getters against c10's ordinals --------------- */

typedef int32_t (*CodeGetter)(void);
struct CodePin {
  const char* getter;
  CodeGetter fn;
  int32_t expected;
  const char* c10_name;
};

#define PIN(getter, expected, c10_name) \
  { #getter, getter, expected, c10_name }
static const struct CodePin kPins[] = {
    PIN(aoti_torch_device_type_cpu, 0, "DeviceType::CPU"),
    PIN(aoti_torch_device_type_cuda, 1, "DeviceType::CUDA"),
    PIN(aoti_torch_device_type_xpu, 12, "DeviceType::XPU"),
    PIN(aoti_torch_device_type_mps, 13, "DeviceType::MPS"),
    PIN(aoti_torch_device_type_meta, 14, "DeviceType::Meta"),
    PIN(aoti_torch_device_type_privateuse1, 20, "DeviceType::PrivateUse1"),

    PIN(aoti_torch_dtype_uint8, 0, "ScalarType::Byte"),
    PIN(aoti_torch_dtype_int8, 1, "ScalarType::Char"),
    PIN(aoti_torch_dtype_int16, 2, "ScalarType::Short"),
    PIN(aoti_torch_dtype_int32, 3, "ScalarType::Int"),
    PIN(aoti_torch_dtype_int64, 4, "ScalarType::Long"),
    PIN(aoti_torch_dtype_float16, 5, "ScalarType::Half"),
    PIN(aoti_torch_dtype_float32, 6, "ScalarType::Float"),
    PIN(aoti_torch_dtype_float64, 7, "ScalarType::Double"),
    PIN(aoti_torch_dtype_complex32, 8, "ScalarType::ComplexHalf"),
    PIN(aoti_torch_dtype_complex64, 9, "ScalarType::ComplexFloat"),
    PIN(aoti_torch_dtype_complex128, 10, "ScalarType::ComplexDouble"),
    PIN(aoti_torch_dtype_bool, 11, "ScalarType::Bool"),
    PIN(aoti_torch_dtype_bfloat16, 15, "ScalarType::BFloat16"),
    PIN(aoti_torch_dtype_float8_e5m2, 23, "ScalarType::Float8_e5m2"),
    PIN(aoti_torch_dtype_float8_e4m3fn, 24, "ScalarType::Float8_e4m3fn"),
    PIN(aoti_torch_dtype_float8_e5m2fnuz, 25, "ScalarType::Float8_e5m2fnuz"),
    PIN(aoti_torch_dtype_float8_e4m3fnuz, 26, "ScalarType::Float8_e4m3fnuz"),
    PIN(aoti_torch_dtype_uint16, 27, "ScalarType::UInt16"),
    PIN(aoti_torch_dtype_uint32, 28, "ScalarType::UInt32"),
    PIN(aoti_torch_dtype_uint64, 29, "ScalarType::UInt64"),

    PIN(aoti_torch_layout_strided, 0, "Layout::Strided"),
    PIN(aoti_torch_layout_sparse_coo, 1, "Layout::Sparse"),
    PIN(aoti_torch_layout_sparse_csr, 2, "Layout::SparseCsr"),
    PIN(aoti_torch_layout__mkldnn, 3, "Layout::Mkldnn"),
    PIN(aoti_torch_layout_sparse_csc, 4, "Layout::SparseCsc"),
    PIN(aoti_torch_layout_sparse_bsr, 5, "Layout::SparseBsr"),
    PIN(aoti_torch_layout_sparse_bsc, 6, "Layout::SparseBsc"),
    PIN(aoti_torch_layout_jagged, 7, "Layout::Jagged"),

    PIN(aoti_torch_memory_format_contiguous_format, 0, "MemoryFormat::Contiguous"),
    PIN(aoti_torch_memory_format_preserve_format, 1, "MemoryFormat::Preserve"),
    PIN(aoti_torch_memory_format_channels_last, 2, "MemoryFormat::ChannelsLast"),
    PIN(aoti_torch_memory_format_channels_last_3d, 3, "MemoryFormat::ChannelsLast3d"),
};
#undef PIN

struct SizePin {
  const char* dtype_getter;
  CodeGetter dtype;
  size_t expected;
};
#define SIZE_PIN(getter, bytes) \
  { #getter, getter, bytes }
static const struct SizePin kSizes[] = {
    SIZE_PIN(aoti_torch_dtype_uint8, 1),         SIZE_PIN(aoti_torch_dtype_int8, 1),
    SIZE_PIN(aoti_torch_dtype_int16, 2),         SIZE_PIN(aoti_torch_dtype_int32, 4),
    SIZE_PIN(aoti_torch_dtype_int64, 8),         SIZE_PIN(aoti_torch_dtype_float16, 2),
    SIZE_PIN(aoti_torch_dtype_float32, 4),       SIZE_PIN(aoti_torch_dtype_float64, 8),
    SIZE_PIN(aoti_torch_dtype_complex32, 4),     SIZE_PIN(aoti_torch_dtype_complex64, 8),
    SIZE_PIN(aoti_torch_dtype_complex128, 16),   SIZE_PIN(aoti_torch_dtype_bool, 1),
    SIZE_PIN(aoti_torch_dtype_bfloat16, 2),      SIZE_PIN(aoti_torch_dtype_float8_e5m2, 1),
    SIZE_PIN(aoti_torch_dtype_float8_e4m3fn, 1), SIZE_PIN(aoti_torch_dtype_uint16, 2),
    SIZE_PIN(aoti_torch_dtype_uint32, 4),        SIZE_PIN(aoti_torch_dtype_uint64, 8),
};
#undef SIZE_PIN

int main(void) {
  int failures = 0;
  size_t i;
  for (i = 0; i < sizeof(kPins) / sizeof(kPins[0]); ++i) {
    int32_t got = kPins[i].fn();
    if (got != kPins[i].expected) {
      printf("MISMATCH: %s() returned %d, expected %d (c10 %s)\n", kPins[i].getter, (int)got,
             (int)kPins[i].expected, kPins[i].c10_name);
      ++failures;
    }
  }
  for (i = 0; i < sizeof(kSizes) / sizeof(kSizes[0]); ++i) {
    size_t got = aoti_torch_dtype_element_size(kSizes[i].dtype());
    if (got != kSizes[i].expected) {
      printf("MISMATCH: aoti_torch_dtype_element_size(%s()) returned %zu, expected %zu\n",
             kSizes[i].dtype_getter, got, kSizes[i].expected);
      ++failures;
    }
  }
  if (aoti_torch_abi_version() < TORCH_VERSION_2_10_0) {
    printf(
        "MISMATCH: aoti_torch_abi_version() = 0x%016llx, below the 2.10 level release "
        "0.1.0 claimed\n",
        (unsigned long long)aoti_torch_abi_version());
    ++failures;
  }
  if (stabletorch_abi_level() != aoti_torch_abi_version()) {
    printf(
        "MISMATCH: stabletorch_abi_level() = 0x%016llx but aoti_torch_abi_version() = "
        "0x%016llx\n",
        (unsigned long long)stabletorch_abi_level(), (unsigned long long)aoti_torch_abi_version());
    ++failures;
  }
  if (failures) {
    printf("FAILED: %d ABI code value(s) changed; every plugin built before relies on them\n",
           failures);
    return 1;
  }
  printf("OK: %zu code getters, %zu element sizes and the ABI level match the pinned values\n",
         sizeof(kPins) / sizeof(kPins[0]), sizeof(kSizes) / sizeof(kSizes[0]));
  return 0;
}
