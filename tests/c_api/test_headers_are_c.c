/* Proves the public C ABI headers are C: this file is compiled as C11 with
 * -Wall -Wextra -Werror -pedantic, once at the headers' own level and once
 * with TORCH_TARGET_VERSION=2.9 (STC_C_SUFFIX names the two builds). The
 * _Static_asserts pin the sizes and codes that are compile-time constants;
 * the runtime codes (getters) are pinned against c10's ordinals by the
 * function below, which test_headers_are_c_runner.cpp calls. */
#include <stabletorch/c/library.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/macros.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/version.h>

_Static_assert(sizeof(StableIValue) == 8, "StableIValue is 64 bits");
_Static_assert(sizeof(AOTITorchError) == 4, "AOTITorchError is int32_t");
_Static_assert(AOTI_TORCH_SUCCESS == 0, "success code");
_Static_assert(AOTI_TORCH_FAILURE == 1, "failure code");
_Static_assert(sizeof(AtenTensorHandle) == sizeof(void*), "tensor handle is a pointer");
_Static_assert(sizeof(AtenGeneratorHandle) == sizeof(void*), "generator handle is a pointer");
_Static_assert(sizeof(TorchLibraryHandle) == sizeof(void*), "library handle is a pointer");
_Static_assert(sizeof(DeviceGuardHandle) == sizeof(void*), "guard handle is a pointer");
_Static_assert(sizeof(StreamHandle) == sizeof(void*), "stream handle is a pointer");
_Static_assert(sizeof(CUDAGuardHandle) == sizeof(void*), "CUDA guard handle is a pointer");
_Static_assert(sizeof(CUDAStreamGuardHandle) == sizeof(void*), "CUDA stream guard is a pointer");
_Static_assert(sizeof(StableScalarHandle) == sizeof(void*), "scalar handle is a pointer");
_Static_assert(sizeof(void*) <= sizeof(StableIValue), "a handle fits in a StableIValue");
_Static_assert(sizeof(AOTITorchHalf) == 2, "Half is 2 bytes");
_Static_assert(sizeof(AOTITorchBFloat16) == 2, "BFloat16 is 2 bytes");
_Static_assert(sizeof(AOTITorchComplex64) == 8 && _Alignof(AOTITorchComplex64) == 8, "complex64");
_Static_assert(sizeof(AOTITorchComplex128) == 16 && _Alignof(AOTITorchComplex128) == 16,
               "complex128");
_Static_assert(STABLETORCH_SCALAR_BOOL == 0 && STABLETORCH_SCALAR_INT == 1 &&
                   STABLETORCH_SCALAR_DOUBLE == 2 && STABLETORCH_SCALAR_COMPLEX == 3,
               "scalar kinds");
_Static_assert(TORCH_FEATURE_VERSION <= TORCH_ABI_VERSION, "feature level");

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
_Static_assert(sizeof(StableListHandle) == sizeof(void*), "list handle is a pointer");
_Static_assert(sizeof(StringHandle) == sizeof(void*), "string handle is a pointer");
#endif

#define STC_CAT_(a, b) a##b
#define STC_CAT(a, b) STC_CAT_(a, b)

#define STC_PIN(expr, value) \
  if ((expr) != (value)) ++mismatches

/* Number of codes that differ from c10's ordinals (0 when all agree). */
int STC_CAT(stc_c_code_mismatches, STC_C_SUFFIX)(void) {
  int mismatches = 0;
  STC_PIN(aoti_torch_device_type_cpu(), 0);
  STC_PIN(aoti_torch_device_type_cuda(), 1);
  STC_PIN(aoti_torch_device_type_mps(), 13);
  STC_PIN(aoti_torch_device_type_meta(), 14);
  STC_PIN(aoti_torch_device_type_xpu(), 12);
  STC_PIN(aoti_torch_device_type_privateuse1(), 20);
  STC_PIN(aoti_torch_dtype_uint8(), 0);
  STC_PIN(aoti_torch_dtype_int8(), 1);
  STC_PIN(aoti_torch_dtype_int16(), 2);
  STC_PIN(aoti_torch_dtype_int32(), 3);
  STC_PIN(aoti_torch_dtype_int64(), 4);
  STC_PIN(aoti_torch_dtype_float16(), 5);
  STC_PIN(aoti_torch_dtype_float32(), 6);
  STC_PIN(aoti_torch_dtype_float64(), 7);
  STC_PIN(aoti_torch_dtype_complex32(), 8);
  STC_PIN(aoti_torch_dtype_complex64(), 9);
  STC_PIN(aoti_torch_dtype_complex128(), 10);
  STC_PIN(aoti_torch_dtype_bool(), 11);
  STC_PIN(aoti_torch_dtype_bfloat16(), 15);
  STC_PIN(aoti_torch_dtype_float8_e5m2(), 23);
  STC_PIN(aoti_torch_dtype_float8_e4m3fn(), 24);
  STC_PIN(aoti_torch_dtype_float8_e5m2fnuz(), 25);
  STC_PIN(aoti_torch_dtype_float8_e4m3fnuz(), 26);
  STC_PIN(aoti_torch_dtype_uint16(), 27);
  STC_PIN(aoti_torch_dtype_uint32(), 28);
  STC_PIN(aoti_torch_dtype_uint64(), 29);
  STC_PIN(aoti_torch_layout_strided(), 0);
  STC_PIN(aoti_torch_layout_sparse_coo(), 1);
  STC_PIN(aoti_torch_layout_sparse_csr(), 2);
  STC_PIN(aoti_torch_layout_sparse_csc(), 4);
  STC_PIN(aoti_torch_layout_sparse_bsr(), 5);
  STC_PIN(aoti_torch_layout_sparse_bsc(), 6);
  STC_PIN(aoti_torch_layout__mkldnn(), 3);
  STC_PIN(aoti_torch_layout_jagged(), 7);
  STC_PIN(aoti_torch_memory_format_contiguous_format(), 0);
  STC_PIN(aoti_torch_memory_format_preserve_format(), 1);
  STC_PIN(aoti_torch_memory_format_channels_last(), 2);
  STC_PIN(aoti_torch_memory_format_channels_last_3d(), 3);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
  STC_PIN(torch_dtype_float8_e8m0fnu(), 44);
  STC_PIN(torch_dtype_float4_e2m1fn_x2(), 45);
#endif
  /* A C caller: make, inspect and delete a tensor, and read an error. */
  {
    int64_t sizes[1] = {3};
    AtenTensorHandle t = NULL;
    int64_t n = 0;
    if (aoti_torch_empty_strided(1, sizes, NULL, aoti_torch_dtype_float32(),
                                 aoti_torch_device_type_cpu(), -1, &t) != AOTI_TORCH_SUCCESS) {
      ++mismatches;
    } else {
      STC_PIN(aoti_torch_get_numel(t, &n), AOTI_TORCH_SUCCESS);
      STC_PIN(n, 3);
      STC_PIN(aoti_torch_delete_tensor_object(t), AOTI_TORCH_SUCCESS);
    }
    STC_PIN(aoti_torch_get_numel(NULL, &n), AOTI_TORCH_FAILURE);
  }
  return mismatches;
}
