/*
 * Scratch stand-in for libstabletorch's code getters, used only by the
 * self-test of c_abi_pins.c: built with the right values it must pass;
 * built with -DFLIP_FLOAT32 (Float renumbered 6 -> 7) or -DFLIP_CHANNELS_LAST
 * it must fail naming the getter.
 */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((__visibility__("default")))
#define GETTER(name, value) \
  EXPORT int32_t name(void) { return value; }

GETTER(aoti_torch_device_type_cpu, 0)
GETTER(aoti_torch_device_type_cuda, 1)
GETTER(aoti_torch_device_type_xpu, 12)
GETTER(aoti_torch_device_type_mps, 13)
GETTER(aoti_torch_device_type_meta, 14)
GETTER(aoti_torch_device_type_privateuse1, 20)
GETTER(aoti_torch_dtype_uint8, 0)
GETTER(aoti_torch_dtype_int8, 1)
GETTER(aoti_torch_dtype_int16, 2)
GETTER(aoti_torch_dtype_int32, 3)
GETTER(aoti_torch_dtype_int64, 4)
GETTER(aoti_torch_dtype_float16, 5)
#ifdef FLIP_FLOAT32
GETTER(aoti_torch_dtype_float32, 7)
#else
GETTER(aoti_torch_dtype_float32, 6)
#endif
GETTER(aoti_torch_dtype_float64, 7)
GETTER(aoti_torch_dtype_complex32, 8)
GETTER(aoti_torch_dtype_complex64, 9)
GETTER(aoti_torch_dtype_complex128, 10)
GETTER(aoti_torch_dtype_bool, 11)
GETTER(aoti_torch_dtype_bfloat16, 15)
GETTER(aoti_torch_dtype_float8_e5m2, 23)
GETTER(aoti_torch_dtype_float8_e4m3fn, 24)
GETTER(aoti_torch_dtype_float8_e5m2fnuz, 25)
GETTER(aoti_torch_dtype_float8_e4m3fnuz, 26)
GETTER(aoti_torch_dtype_uint16, 27)
GETTER(aoti_torch_dtype_uint32, 28)
GETTER(aoti_torch_dtype_uint64, 29)
GETTER(aoti_torch_layout_strided, 0)
GETTER(aoti_torch_layout_sparse_coo, 1)
GETTER(aoti_torch_layout_sparse_csr, 2)
GETTER(aoti_torch_layout__mkldnn, 3)
GETTER(aoti_torch_layout_sparse_csc, 4)
GETTER(aoti_torch_layout_sparse_bsr, 5)
GETTER(aoti_torch_layout_sparse_bsc, 6)
GETTER(aoti_torch_layout_jagged, 7)
GETTER(aoti_torch_memory_format_contiguous_format, 0)
GETTER(aoti_torch_memory_format_preserve_format, 1)
#ifdef FLIP_CHANNELS_LAST
GETTER(aoti_torch_memory_format_channels_last, 3)
#else
GETTER(aoti_torch_memory_format_channels_last, 2)
#endif
GETTER(aoti_torch_memory_format_channels_last_3d, 3)

EXPORT size_t aoti_torch_dtype_element_size(int32_t dtype) {
  static const size_t sizes[30] = {1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 1, 1, 4,
                                   2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,  1, 2, 4, 8};
  return dtype >= 0 && dtype < 30 ? sizes[dtype] : 0;
}
EXPORT uint64_t aoti_torch_abi_version(void) { return 0x020A000000000000ULL; }
EXPORT uint64_t stabletorch_abi_level(void) { return 0x020A000000000000ULL; }
