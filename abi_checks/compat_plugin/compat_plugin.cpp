// The compatibility plugin: one call to every C-ABI function of the level
// it is built for, through operators whose kernels exercise them.
//
// Built three ways (abi_checks/CMakeLists.txt):
//  - against the frozen SDK headers of each release
//    (abi_checks/baselines/<release>/include/): "old plugin, new core";
//  - against today's headers with TORCH_TARGET_VERSION set to each level:
//    "new headers, old target";
// and, in every build, audited for its imports. Its sources must keep
// compiling against every frozen release: never use an API without the
// version block of the level that introduced it, never rely on a header
// that an older release lacks.
//
// Operators (namespace abi_compat; each check-op returns the number of
// failed expectations, whose text the host reads with abi_compat_report):
//   constants() -> int                           code getters vs c10 ordinals
//   tensor_api(Tensor x) -> Tensor               metadata, creation, copies,
//                                                scalars; returns 2 * x + 1
//   axpy(Tensor x, Tensor y, float alpha) -> Tensor
//   nested(Tensor x, int times) -> Tensor        axpy through the dispatcher,
//                                                returns x * (times + 1)
//   runtime_api() -> int                         grad mode, guards, streams,
//                                                CUDA, warnings, scalars
//   lists_and_strings(int[] xs, str s) -> int    (2.10) sum(xs) + len(s)
//   threads(Tensor x) -> int                     (2.10) parallel_for etc.
//   level_2_11(Tensor x) -> int                  (2.11) new dtypes, from_blob
//   level_2_12() -> int                          (2.12) tag codes (and, at
//                                                registration, a tagged def)
//   level_2_13() -> int                          (2.13) error text, heap slots,
//                                                a stream's native handle (and,
//                                                at registration, the Python
//                                                module of later defs)
//   level_2_14(Tensor x) -> int                  (2.14) has_storage
//
// Written against the C ABI only, so that every exported function is
// called directly and shows up in the plugin's imports (the coverage check).
// Built with PyTorch's headers (no stabletorch header exists there) or as
// a portable plugin (ABI_COMPAT_PORTABLE), it uses no stabletorch addition:
// what it imports must then be exported by PyTorch's runtime as well.
#if __has_include(<stabletorch/c/runtime.h>) && !defined(ABI_COMPAT_PORTABLE)
#include <stabletorch/c/runtime.h>
#define ABI_COMPAT_ADDITIONS 1
#endif
#if defined(ABI_COMPAT_ADDITIONS) || defined(USE_CUDA)
#define ABI_COMPAT_CUDA 1
#endif
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#if !__has_include(<stabletorch/c/runtime.h>)
// PyTorch's headers spell the 16-bit and complex scalar types as c10's.
using AOTITorchHalf = c10::Half;
using AOTITorchBFloat16 = c10::BFloat16;
using AOTITorchComplex64 = c10::complex<float>;
using AOTITorchComplex128 = c10::complex<double>;
#endif
// stabletorch/c/library.h (stabletorch_library_impl_with_signature) is newer
// than the first frozen headers: built against a release that has it, the
// plugin registers one kernel through it, so the coverage check sees it.
#if defined(ABI_COMPAT_ADDITIONS) && __has_include(<stabletorch/c/library.h>)
#include <stabletorch/c/library.h>
#define ABI_COMPAT_HAS_IMPL_WITH_SIGNATURE 1
#endif
#if __has_include(<torch/csrc/stable/c/shim.h>)
#include <torch/csrc/stable/c/shim.h>
#endif
// PyTorch 2.9's headers have no version gates (their level is 2.9).
#ifndef TORCH_FEATURE_VERSION
#define TORCH_FEATURE_VERSION ((2ULL << 56) | (9ULL << 48))
#define TORCH_ABI_VERSION TORCH_FEATURE_VERSION
#define TORCH_VERSION_2_10_0 ((2ULL << 56) | (10ULL << 48))
#define TORCH_VERSION_2_11_0 ((2ULL << 56) | (11ULL << 48))
#define TORCH_VERSION_2_12_0 ((2ULL << 56) | (12ULL << 48))
#define TORCH_VERSION_2_13_0 ((2ULL << 56) | (13ULL << 48))
#define TORCH_VERSION_2_14_0 ((2ULL << 56) | (14ULL << 48))
#define TORCH_VERSION_2_15_0 ((2ULL << 56) | (15ULL << 48))
#endif
#if __has_include(<torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h>)
#include <torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h>
#define COMPAT_HAS_C_SHIM_ATEN 1
#endif

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#define ABI_COMPAT_EXPORT extern "C" __attribute__((__visibility__("default")))

namespace abi_compat {
namespace {

// ---- Failure log: what went wrong, for the host to print ---------------

struct FailureLog {
  char text[16384];
  size_t used;
  int64_t count;
};
FailureLog g_log;

// The core's message for the calling thread's last failure, when the
// running core has torch_exception_get_what (2.13, newer than the levels
// this plugin may target, hence looked up at run time, not imported).
const char* core_error() {
  using Getter = const char* (*)();
  static const Getter getter =
      reinterpret_cast<Getter>(dlsym(RTLD_DEFAULT, "torch_exception_get_what"));
  return getter != nullptr ? getter() : nullptr;
}

void record_failure(const char* what, const char* func, int line, bool c_call) {
  ++g_log.count;
  if (g_log.used + 512 >= sizeof(g_log.text)) {
    return;
  }
  const char* why = c_call ? core_error() : nullptr;
  int n = std::snprintf(g_log.text + g_log.used, sizeof(g_log.text) - g_log.used,
                        "compat_plugin.cpp:%d in %s: expected %s%s%.300s\n", line, func, what,
                        why != nullptr ? "\n    core says: " : "", why != nullptr ? why : "");
  if (n > 0) {
    g_log.used = std::min(g_log.used + static_cast<size_t>(n), sizeof(g_log.text) - 1);
  }
}

#define COMPAT_CHECK_(cond, c_call)                      \
  do {                                                   \
    if (!(cond)) {                                       \
      record_failure(#cond, __func__, __LINE__, c_call); \
      ++failures;                                        \
    }                                                    \
  } while (0)
#define COMPAT_EXPECT(cond) COMPAT_CHECK_(cond, false)
#define COMPAT_OK(call) COMPAT_CHECK_((call) == AOTI_TORCH_SUCCESS, true)

// ---- StableIValue encodings (PyTorch's: raw bits, handles as pointers) --

StableIValue from_handle(const void* h) {
  StableIValue v = 0;
  std::memcpy(&v, &h, sizeof(h));
  return v;
}
template <typename Handle>
Handle to_handle(StableIValue v) {
  Handle h;
  std::memcpy(&h, &v, sizeof(h));
  return h;
}
StableIValue from_int(int64_t i) {
  StableIValue v = 0;
  std::memcpy(&v, &i, sizeof(i));
  return v;
}
int64_t to_int(StableIValue v) {
  int64_t i;
  std::memcpy(&i, &v, sizeof(i));
  return i;
}
StableIValue from_double(double d) {
  StableIValue v = 0;
  std::memcpy(&v, &d, sizeof(d));
  return v;
}
double to_double(StableIValue v) {
  double d;
  std::memcpy(&d, &v, sizeof(d));
  return d;
}

// A new contiguous float32 CPU tensor of the given sizes, or null.
AtenTensorHandle new_float_tensor(int64_t ndim, const int64_t* sizes) {
  int64_t strides[8];
  int64_t stride = 1;
  for (int64_t d = ndim - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= sizes[d];
  }
  AtenTensorHandle out = nullptr;
  if (aoti_torch_empty_strided(ndim, sizes, strides, aoti_torch_dtype_float32(),
                               aoti_torch_device_type_cpu(), 0, &out) != AOTI_TORCH_SUCCESS) {
    return nullptr;
  }
  return out;
}

float* float_data(AtenTensorHandle t) {
  void* p = nullptr;
  if (aoti_torch_get_data_ptr(t, &p) != AOTI_TORCH_SUCCESS) {
    return nullptr;
  }
  return static_cast<float*>(p);
}

// ---- constants() -> int --------------------------------------------------

void constants_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 0 && num_outputs == 1);
  COMPAT_EXPECT(aoti_torch_device_type_cpu() == 0);
  COMPAT_EXPECT(aoti_torch_device_type_cuda() == 1);
  COMPAT_EXPECT(aoti_torch_device_type_xpu() == 12);
  COMPAT_EXPECT(aoti_torch_device_type_mps() == 13);
  COMPAT_EXPECT(aoti_torch_device_type_meta() == 14);
  COMPAT_EXPECT(aoti_torch_device_type_privateuse1() == 20);
  COMPAT_EXPECT(aoti_torch_dtype_uint8() == 0);
  COMPAT_EXPECT(aoti_torch_dtype_int8() == 1);
  COMPAT_EXPECT(aoti_torch_dtype_int16() == 2);
  COMPAT_EXPECT(aoti_torch_dtype_int32() == 3);
  COMPAT_EXPECT(aoti_torch_dtype_int64() == 4);
  COMPAT_EXPECT(aoti_torch_dtype_float16() == 5);
  COMPAT_EXPECT(aoti_torch_dtype_float32() == 6);
  COMPAT_EXPECT(aoti_torch_dtype_float64() == 7);
  COMPAT_EXPECT(aoti_torch_dtype_complex32() == 8);
  COMPAT_EXPECT(aoti_torch_dtype_complex64() == 9);
  COMPAT_EXPECT(aoti_torch_dtype_complex128() == 10);
  COMPAT_EXPECT(aoti_torch_dtype_bool() == 11);
  COMPAT_EXPECT(aoti_torch_dtype_bfloat16() == 15);
  COMPAT_EXPECT(aoti_torch_dtype_float8_e5m2() == 23);
  COMPAT_EXPECT(aoti_torch_dtype_float8_e4m3fn() == 24);
  COMPAT_EXPECT(aoti_torch_dtype_float8_e5m2fnuz() == 25);
  COMPAT_EXPECT(aoti_torch_dtype_float8_e4m3fnuz() == 26);
  COMPAT_EXPECT(aoti_torch_dtype_uint16() == 27);
  COMPAT_EXPECT(aoti_torch_dtype_uint32() == 28);
  COMPAT_EXPECT(aoti_torch_dtype_uint64() == 29);
  COMPAT_EXPECT(aoti_torch_dtype_element_size(aoti_torch_dtype_float64()) == 8);
  COMPAT_EXPECT(aoti_torch_dtype_element_size(aoti_torch_dtype_complex64()) == 8);
  COMPAT_EXPECT(aoti_torch_layout_strided() == 0);
  COMPAT_EXPECT(aoti_torch_layout_sparse_coo() == 1);
  COMPAT_EXPECT(aoti_torch_layout_sparse_csr() == 2);
  COMPAT_EXPECT(aoti_torch_layout__mkldnn() == 3);
  COMPAT_EXPECT(aoti_torch_layout_sparse_csc() == 4);
  COMPAT_EXPECT(aoti_torch_layout_sparse_bsr() == 5);
  COMPAT_EXPECT(aoti_torch_layout_sparse_bsc() == 6);
  COMPAT_EXPECT(aoti_torch_layout_jagged() == 7);
  COMPAT_EXPECT(aoti_torch_memory_format_contiguous_format() == 0);
  COMPAT_EXPECT(aoti_torch_memory_format_preserve_format() == 1);
  COMPAT_EXPECT(aoti_torch_memory_format_channels_last() == 2);
  COMPAT_EXPECT(aoti_torch_memory_format_channels_last_3d() == 3);
  // A newer core serves at least the level this plugin was built for.
  COMPAT_EXPECT(aoti_torch_abi_version() >= TORCH_FEATURE_VERSION);
  stack[0] = from_int(failures);
}

// ---- tensor_api(Tensor x) -> Tensor ---------------------------------------
// x: a contiguous 2x3 float32 CPU tensor. Returns 2 * x + 1.

int64_t check_scalars() {
  int64_t failures = 0;
  AtenTensorHandle t = nullptr;
#define COMPAT_SCALAR_ROUND_TRIP(suffix, type, value)             \
  do {                                                            \
    t = nullptr;                                                  \
    COMPAT_OK(aoti_torch_scalar_to_tensor_##suffix((value), &t)); \
    type got{};                                                   \
    COMPAT_OK(aoti_torch_item_##suffix(t, &got));                 \
    COMPAT_EXPECT(got == (value));                                \
    COMPAT_OK(aoti_torch_delete_tensor_object(t));                \
  } while (0)
  COMPAT_SCALAR_ROUND_TRIP(float32, float, 1.5f);
  COMPAT_SCALAR_ROUND_TRIP(float64, double, -2.25);
  COMPAT_SCALAR_ROUND_TRIP(uint8, uint8_t, 200);
  COMPAT_SCALAR_ROUND_TRIP(uint16, uint16_t, 60000);
  COMPAT_SCALAR_ROUND_TRIP(uint32, uint32_t, 4000000000u);
  COMPAT_SCALAR_ROUND_TRIP(uint64, uint64_t, 0x123456789Aull);
  COMPAT_SCALAR_ROUND_TRIP(int8, int8_t, -100);
  COMPAT_SCALAR_ROUND_TRIP(int16, int16_t, -30000);
  COMPAT_SCALAR_ROUND_TRIP(int32, int32_t, -2000000000);
  COMPAT_SCALAR_ROUND_TRIP(int64, int64_t, -9000000000000000000ll);
  COMPAT_SCALAR_ROUND_TRIP(bool, bool, true);
#undef COMPAT_SCALAR_ROUND_TRIP

  // complex64: the C++ spelling is torch::headeronly::complex<float>;
  // compare the two floats of its layout.
  const float parts[2] = {1.5f, -2.0f};
  const AOTITorchComplex64 c64(parts[0], parts[1]);
  t = nullptr;
  COMPAT_OK(aoti_torch_scalar_to_tensor_complex64(c64, &t));
  AOTITorchComplex64 c64_back{};
  COMPAT_OK(aoti_torch_item_complex64(t, &c64_back));
  float back[2] = {0, 0};
  std::memcpy(back, &c64_back, sizeof(back));
  COMPAT_EXPECT(back[0] == parts[0] && back[1] == parts[1]);
  COMPAT_OK(aoti_torch_delete_tensor_object(t));

  const double parts128[2] = {0.25, 4.0};
  const AOTITorchComplex128 c128(parts128[0], parts128[1]);
  t = nullptr;
  COMPAT_OK(aoti_torch_scalar_to_tensor_complex128(c128, &t));
  int32_t dtype = -1;
  COMPAT_OK(aoti_torch_get_dtype(t, &dtype));
  COMPAT_EXPECT(dtype == aoti_torch_dtype_complex128());
  void* p = nullptr;
  COMPAT_OK(aoti_torch_get_data_ptr(t, &p));
  COMPAT_EXPECT(p != nullptr && std::memcmp(p, parts128, sizeof(parts128)) == 0);
  COMPAT_OK(aoti_torch_delete_tensor_object(t));

  // float16 / bfloat16: no scalar_to_tensor; write the bits of 1.0.
  const int64_t one = 1;
  const int64_t unit = 1;
  const uint16_t half_one = 0x3C00;
  const uint16_t bf16_one = 0x3F80;
  struct {
    int32_t dtype;
    uint16_t bits;
  } cases[2] = {{aoti_torch_dtype_float16(), half_one}, {aoti_torch_dtype_bfloat16(), bf16_one}};
  for (int i = 0; i < 2; ++i) {
    t = nullptr;
    COMPAT_OK(aoti_torch_empty_strided(1, &one, &unit, cases[i].dtype, aoti_torch_device_type_cpu(),
                                       0, &t));
    void* d = nullptr;
    COMPAT_OK(aoti_torch_get_data_ptr(t, &d));
    if (d != nullptr) {
      std::memcpy(d, &cases[i].bits, 2);
    }
    uint16_t got = 0;
    if (i == 0) {
      AOTITorchHalf h{};
      COMPAT_OK(aoti_torch_item_float16(t, &h));
      std::memcpy(&got, &h, 2);
    } else {
      AOTITorchBFloat16 b{};
      COMPAT_OK(aoti_torch_item_bfloat16(t, &b));
      std::memcpy(&got, &b, 2);
    }
    COMPAT_EXPECT(got == cases[i].bits);
    COMPAT_OK(aoti_torch_delete_tensor_object(t));
  }
  return failures;
}

float g_blob[6] = {10, 11, 12, 13, 14, 15};

#ifdef COMPAT_HAS_C_SHIM_ATEN
// The aoti_torch_aten_* shims on x (2x3 float32, values v): each result
// is checked by value, every handle released.
int64_t check_c_shim_aten(AtenTensorHandle x) {
  int64_t failures = 0;
  const float* in = float_data(x);
  AtenTensorHandle row = nullptr;  // x[1:2]
  COMPAT_OK(aoti_torch_aten_narrow(x, 0, 1, 1, &row));
  COMPAT_EXPECT(in != nullptr && float_data(row) == in + 3);
  const int64_t last[1] = {1};
  AtenTensorHandle mx = nullptr;  // max over dim 1
  COMPAT_OK(aoti_torch_aten_amax(x, last, 1, 0, &mx));
  const float* m = float_data(mx);
  COMPAT_EXPECT(m != nullptr && in != nullptr && m[0] == std::max({in[0], in[1], in[2]}));
  const int64_t pad[2] = {0, 1};
  double value = 7.0;
  AtenTensorHandle padded = nullptr;  // 2x4, last column 7
  COMPAT_OK(aoti_torch_aten_pad(x, pad, 2, "constant", &value, &padded));
  const float* p = float_data(padded);
  COMPAT_EXPECT(p != nullptr && p[3] == 7.0f && p[7] == 7.0f);
  const int64_t two[1] = {2};
  AtenTensorHandle e = nullptr, z = nullptr;
  COMPAT_OK(aoti_torch_aten_new_empty(x, two, 1, nullptr, nullptr, nullptr, 0, nullptr, &e));
  COMPAT_OK(aoti_torch_aten_new_zeros(x, two, 1, nullptr, nullptr, nullptr, 0, nullptr, &z));
  COMPAT_OK(aoti_torch_aten_fill__Scalar(e, 3.0));
  const float* ed = float_data(e);
  const float* zd = float_data(z);
  COMPAT_EXPECT(ed != nullptr && ed[0] == 3.0f && ed[1] == 3.0f);
  COMPAT_EXPECT(zd != nullptr && zd[0] == 0.0f && zd[1] == 0.0f);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  AtenTensorHandle f = nullptr, d = nullptr;
  COMPAT_OK(aoti_torch_aten_full(two, 1, 5.0, nullptr, nullptr, nullptr, 0, nullptr, &f));
  COMPAT_OK(aoti_torch_aten_subtract_Tensor(f, e, 2.0, &d));  // 5 - 2 * 3
  const float* dd = float_data(d);
  COMPAT_EXPECT(dd != nullptr && dd[0] == -1.0f && dd[1] == -1.0f);
  for (AtenTensorHandle h : {f, d}) COMPAT_OK(aoti_torch_delete_tensor_object(h));
#endif
  for (AtenTensorHandle h : {row, mx, padded, e, z}) COMPAT_OK(aoti_torch_delete_tensor_object(h));
  return failures;
}
#endif

void tensor_api_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 1 && num_outputs == 1);
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);

  // Metadata.
  int64_t dim = 0, numel = 0, size1 = 0, stride0 = 0, offset = -1, storage_bytes = 0,
          storage_numel = 0;
  int64_t* sizes = nullptr;
  int64_t* strides = nullptr;
  int32_t dtype = -1, device_type = -1, device_index = 7, layout = -1;
  bool contiguous = false, defined = false;
  COMPAT_OK(aoti_torch_get_dim(x, &dim));
  COMPAT_OK(aoti_torch_get_numel(x, &numel));
  COMPAT_OK(aoti_torch_get_sizes(x, &sizes));
  COMPAT_OK(aoti_torch_get_size(x, 1, &size1));
  COMPAT_OK(aoti_torch_get_strides(x, &strides));
  COMPAT_OK(aoti_torch_get_stride(x, 0, &stride0));
  COMPAT_OK(aoti_torch_get_dtype(x, &dtype));
  COMPAT_OK(aoti_torch_get_device_type(x, &device_type));
  COMPAT_OK(aoti_torch_get_device_index(x, &device_index));
  COMPAT_OK(aoti_torch_get_layout(x, &layout));
  COMPAT_OK(aoti_torch_get_storage_offset(x, &offset));
  COMPAT_OK(aoti_torch_get_storage_size(x, &storage_bytes));
  COMPAT_OK(aoti_torch_get_storage_numel(x, &storage_numel));
  COMPAT_OK(aoti_torch_is_contiguous(x, &contiguous));
  COMPAT_OK(aoti_torch_is_defined(x, &defined));
  COMPAT_EXPECT(dim == 2 && numel == 6 && size1 == 3 && stride0 == 3);
  COMPAT_EXPECT(sizes != nullptr && sizes[0] == 2 && sizes[1] == 3);
  COMPAT_EXPECT(strides != nullptr && strides[0] == 3 && strides[1] == 1);
  COMPAT_EXPECT(dtype == aoti_torch_dtype_float32());
  COMPAT_EXPECT(device_type == aoti_torch_device_type_cpu());
  COMPAT_EXPECT(device_index == -1 || device_index == 0);
  COMPAT_EXPECT(layout == aoti_torch_layout_strided());
  COMPAT_EXPECT(offset == 0 && storage_bytes == 24 && storage_numel == 6);
  COMPAT_EXPECT(contiguous && defined);

  void* data = nullptr;
  void* mutable_data = nullptr;
  const void* const_data = nullptr;
  COMPAT_OK(aoti_torch_get_data_ptr(x, &data));
#ifdef ABI_COMPAT_ADDITIONS
  // stabletorch's spellings under PyTorch's prefix (PyTorch lacks them).
  COMPAT_OK(aoti_torch_get_mutable_data_ptr(x, &mutable_data));
  COMPAT_OK(aoti_torch_get_const_data_ptr(x, &const_data));
#else
  mutable_data = data;
  const_data = data;
#endif
  COMPAT_EXPECT(data != nullptr && data == mutable_data && data == const_data);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  void* mutable_data2 = nullptr;
  const void* const_data2 = nullptr;
  COMPAT_OK(torch_get_mutable_data_ptr(x, &mutable_data2));
  COMPAT_OK(torch_get_const_data_ptr(x, &const_data2));
  COMPAT_EXPECT(mutable_data2 == data && const_data2 == data);
#endif
  const float* in = static_cast<const float*>(data);

  // Handles.
  AtenTensorHandle alias = nullptr;
  COMPAT_OK(aoti_torch_new_tensor_handle(x, &alias));
  AtenTensorHandle undefined = nullptr;
  COMPAT_OK(aoti_torch_new_uninitialized_tensor(&undefined));
  bool undefined_is_defined = true;
  COMPAT_OK(aoti_torch_is_defined(undefined, &undefined_is_defined));
  COMPAT_EXPECT(!undefined_is_defined);
  COMPAT_OK(aoti_torch_assign_tensors(alias, undefined));
  COMPAT_OK(aoti_torch_is_defined(undefined, &undefined_is_defined));
  COMPAT_EXPECT(undefined_is_defined);
  AtenTensorHandle assigned = nullptr;
  COMPAT_OK(aoti_torch_assign_tensors_out(x, &assigned));
  int64_t assigned_numel = 0;
  COMPAT_OK(aoti_torch_get_numel(assigned, &assigned_numel));
  COMPAT_EXPECT(assigned_numel == 6);
  COMPAT_OK(aoti_torch_delete_tensor_object(assigned));
  COMPAT_OK(aoti_torch_delete_tensor_object(undefined));
  COMPAT_OK(aoti_torch_delete_tensor_object(alias));
  COMPAT_OK(aoti_torch_delete_tensor_object(nullptr));  // documented no-op

  // Views.
  const int64_t t_sizes[2] = {3, 2};
  const int64_t t_strides[2] = {1, 3};
  AtenTensorHandle transposed = nullptr;
  COMPAT_OK(aoti_torch_as_strided(x, t_sizes, t_strides, &transposed));
  float* tdata = float_data(transposed);
  COMPAT_EXPECT(tdata == in);
  bool t_contiguous = true;
  COMPAT_OK(aoti_torch_is_contiguous(transposed, &t_contiguous));
  COMPAT_EXPECT(!t_contiguous);
  const int64_t flat_size = 4;
  const int64_t flat_stride = 1;
  AtenTensorHandle flat = nullptr;
  COMPAT_OK(aoti_torch__reinterpret_tensor(x, 1, &flat_size, &flat_stride, 2, &flat));
  int64_t flat_offset = 0;
  COMPAT_OK(aoti_torch_get_storage_offset(flat, &flat_offset));
  COMPAT_EXPECT(flat_offset == 2);
  float* fdata = float_data(flat);
  COMPAT_EXPECT(fdata != nullptr && in != nullptr && fdata[0] == in[2]);

  // Copies: clone, clone_preserve_strides, copy_, tensor_copy_, zero_.
  AtenTensorHandle cloned = nullptr;
  COMPAT_OK(aoti_torch_clone(transposed, &cloned));
  // clone keeps the memory format (PyTorch's MemoryFormat::Preserve): a
  // transposed, dense input gives a transposed, dense copy.
  bool cloned_contiguous = true;
  COMPAT_OK(aoti_torch_is_contiguous(cloned, &cloned_contiguous));
  COMPAT_EXPECT(!cloned_contiguous);
  int64_t* c_strides = nullptr;
  COMPAT_OK(aoti_torch_get_strides(cloned, &c_strides));
  COMPAT_EXPECT(c_strides != nullptr && c_strides[0] == 1 && c_strides[1] == 3);
  AtenTensorHandle preserved = nullptr;
  COMPAT_OK(aoti_torch_clone_preserve_strides(transposed, &preserved));
  int64_t* p_strides = nullptr;
  COMPAT_OK(aoti_torch_get_strides(preserved, &p_strides));
  COMPAT_EXPECT(p_strides != nullptr && p_strides[0] == 1 && p_strides[1] == 3);
  float* cdata = float_data(cloned);
  // Element (0, 1) of the transposed view is in[3], wherever the copy's
  // strides put it.
  COMPAT_EXPECT(cdata != nullptr && in != nullptr && c_strides != nullptr &&
                cdata[c_strides[1]] == in[3]);
  COMPAT_OK(aoti_torch_zero_(cloned));
  cdata = float_data(cloned);
  COMPAT_EXPECT(cdata != nullptr && cdata[0] == 0.0f && cdata[5] == 0.0f);

  // From blob (no deleter: the memory outlives the tensors).
  const int64_t b_sizes[2] = {2, 3};
  const int64_t b_strides[2] = {3, 1};
  AtenTensorHandle blob = nullptr;
  COMPAT_OK(aoti_torch_create_tensor_from_blob(g_blob, 2, b_sizes, b_strides, 0,
                                               aoti_torch_dtype_float32(),
                                               aoti_torch_device_type_cpu(), 0, &blob));
  COMPAT_EXPECT(float_data(blob) == g_blob);
  AtenTensorHandle blob2 = nullptr;
  COMPAT_OK(aoti_torch_create_tensor_from_blob_v2(
      g_blob, 2, b_sizes, b_strides, 0, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(), 0,
      &blob2, aoti_torch_layout_strided(), nullptr, 0));
  COMPAT_EXPECT(float_data(blob2) == g_blob);
  // blob <- x (copy_), then the cloned zeros <- blob with the deprecated
  // argument order (src, dst).
  COMPAT_OK(aoti_torch_copy_(blob, x, 0));
  COMPAT_EXPECT(in != nullptr && g_blob[4] == in[4]);
  AtenTensorHandle sink = new_float_tensor(2, b_sizes);
  COMPAT_EXPECT(sink != nullptr);
  COMPAT_OK(aoti_torch_tensor_copy_(blob2, sink));
  float* sdata = float_data(sink);
  COMPAT_EXPECT(sdata != nullptr && in != nullptr && sdata[5] == in[5]);
  COMPAT_EXPECT(aoti_torch_dtype_element_size(aoti_torch_dtype_float32()) == 4);

  failures += check_scalars();
#ifdef COMPAT_HAS_C_SHIM_ATEN
  failures += check_c_shim_aten(x);
#endif

  // The result: 2 * x + 1 in a fresh tensor.
  AtenTensorHandle out = new_float_tensor(2, b_sizes);
  float* odata = float_data(out);
  if (odata != nullptr && in != nullptr) {
    for (int i = 0; i < 6; ++i) {
      odata[i] = 2.0f * in[i] + 1.0f;
    }
  }
  for (AtenTensorHandle h : {transposed, flat, cloned, preserved, blob, blob2, sink, x}) {
    COMPAT_OK(aoti_torch_delete_tensor_object(h));
  }
  stack[0] = from_handle(out);
  if (failures != 0) {
    aoti_torch_warn("tensor_api", __FILE__, __LINE__, "abi_compat::tensor_api saw failures");
  }
}

// ---- axpy(Tensor x, Tensor y, float alpha) -> Tensor ---------------------

void axpy_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 3 && num_outputs == 1);
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);
  AtenTensorHandle y = to_handle<AtenTensorHandle>(stack[1]);
  double alpha = to_double(stack[2]);
  int64_t n = 0, ny = 0, dim = 0;
  int64_t* sizes = nullptr;
  COMPAT_OK(aoti_torch_get_numel(x, &n));
  COMPAT_OK(aoti_torch_get_numel(y, &ny));
  COMPAT_OK(aoti_torch_get_dim(x, &dim));
  COMPAT_OK(aoti_torch_get_sizes(x, &sizes));
  COMPAT_EXPECT(n == ny);
  AtenTensorHandle out = sizes != nullptr ? new_float_tensor(dim, sizes) : nullptr;
  const float* xd = float_data(x);
  const float* yd = float_data(y);
  float* od = out != nullptr ? float_data(out) : nullptr;
  if (xd != nullptr && yd != nullptr && od != nullptr && n == ny) {
    for (int64_t i = 0; i < n; ++i) {
      od[i] = static_cast<float>(alpha) * xd[i] + yd[i];
    }
  }
  COMPAT_OK(aoti_torch_delete_tensor_object(x));
  COMPAT_OK(aoti_torch_delete_tensor_object(y));
  stack[0] = from_handle(out);
  (void)failures;  // recorded in the log the host reads
}

// ---- nested(Tensor x, int times) -> Tensor -------------------------------
// acc = x; repeat `times`: acc = axpy(x, acc, 1.0) through the dispatcher.

void nested_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 2 && num_outputs == 1);
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);
  int64_t times = to_int(stack[1]);
  AtenTensorHandle acc = nullptr;
  COMPAT_OK(aoti_torch_new_tensor_handle(x, &acc));
  for (int64_t i = 0; i < times && acc != nullptr; ++i) {
    AtenTensorHandle x_ref = nullptr;
    COMPAT_OK(aoti_torch_new_tensor_handle(x, &x_ref));
    StableIValue call_stack[3] = {from_handle(x_ref), from_handle(acc), from_double(1.0)};
    AOTITorchError err;
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
    if (i % 2 == 1) {
      err = torch_call_dispatcher("abi_compat::axpy", "", call_stack, TORCH_ABI_VERSION);
    } else {
      err = aoti_torch_call_dispatcher("abi_compat::axpy", "", call_stack);
    }
#else
    err = aoti_torch_call_dispatcher("abi_compat::axpy", "", call_stack);
#endif
    COMPAT_EXPECT(err == AOTI_TORCH_SUCCESS);
    // The callee stole x_ref and acc; on success it returned a new acc.
    acc = err == AOTI_TORCH_SUCCESS ? to_handle<AtenTensorHandle>(call_stack[0]) : nullptr;
  }
  COMPAT_OK(aoti_torch_delete_tensor_object(x));
  stack[0] = from_handle(acc);
  (void)failures;  // recorded in the log the host reads
}

// ---- runtime_api() -> int -------------------------------------------------
// Functions whose success depends on the core's build (CUDA, accelerators)
// are called and must either succeed (then their objects are released) or
// fail cleanly with AOTI_TORCH_FAILURE.

bool clean_result(AOTITorchError e) { return e == AOTI_TORCH_SUCCESS || e == AOTI_TORCH_FAILURE; }

#ifdef ABI_COMPAT_ADDITIONS
int64_t check_scalar_handles() {
  int64_t failures = 0;
  StableScalarHandle b = nullptr, i = nullptr, d = nullptr, c = nullptr;
  COMPAT_OK(stabletorch_scalar_from_bool(true, &b));
  COMPAT_OK(stabletorch_scalar_from_int(-42, &i));
  COMPAT_OK(stabletorch_scalar_from_double(2.5, &d));
  COMPAT_OK(stabletorch_scalar_from_complex(1.0, -1.0, &c));
  int32_t kind = -1;
  COMPAT_OK(stabletorch_scalar_kind(c, &kind));
  COMPAT_EXPECT(kind == STABLETORCH_SCALAR_COMPLEX);
  COMPAT_OK(stabletorch_scalar_kind(i, &kind));
  COMPAT_EXPECT(kind == STABLETORCH_SCALAR_INT);
  bool bv = false;
  int64_t iv = 0;
  double dv = 0, re = 0, im = 0;
  COMPAT_OK(stabletorch_scalar_to_bool(b, &bv));
  COMPAT_OK(stabletorch_scalar_to_int(i, &iv));
  COMPAT_OK(stabletorch_scalar_to_double(d, &dv));
  COMPAT_OK(stabletorch_scalar_to_complex(c, &re, &im));
  COMPAT_EXPECT(bv && iv == -42 && dv == 2.5 && re == 1.0 && im == -1.0);
  COMPAT_EXPECT(stabletorch_scalar_to_int(d, &iv) == AOTI_TORCH_FAILURE);  // exact reads
  for (StableScalarHandle s : {b, i, d, c}) {
    COMPAT_OK(stabletorch_delete_scalar(s));
  }
  return failures;
}
#endif

void runtime_api_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 0 && num_outputs == 1);

  bool grad = aoti_torch_grad_mode_is_enabled();
  aoti_torch_grad_mode_set_enabled(!grad);
  COMPAT_EXPECT(aoti_torch_grad_mode_is_enabled() == !grad);
  aoti_torch_grad_mode_set_enabled(grad);

  // Device-generic guards and streams.
  int32_t current = -2;
  COMPAT_EXPECT(clean_result(aoti_torch_get_current_device_index(&current)));
#ifdef COMPAT_HAS_C_SHIM_ATEN
  // Newer 2.9 functions (absent from release 0.1.0's headers, as c_shim_aten.h).
  aoti_torch_check(true, __func__, __FILE__, __LINE__, "never thrown: the condition holds");
  const int64_t pinned_size[1] = {4};
  AtenTensorHandle pinned = nullptr;
  const AOTITorchError pinned_err =
      aoti_torch_empty_strided_pinned(1, pinned_size, nullptr, aoti_torch_dtype_float32(),
                                      aoti_torch_device_type_cpu(), 0, &pinned);
  COMPAT_EXPECT(clean_result(pinned_err));
  if (pinned_err == AOTI_TORCH_SUCCESS) COMPAT_OK(aoti_torch_delete_tensor_object(pinned));
#endif
  DeviceGuardHandle guard = nullptr;
  if (aoti_torch_create_device_guard(0, &guard) == AOTI_TORCH_SUCCESS) {
    COMPAT_EXPECT(clean_result(aoti_torch_device_guard_set_index(guard, 0)));
    COMPAT_OK(aoti_torch_delete_device_guard(guard));
  } else {
    COMPAT_EXPECT(aoti_torch_device_guard_set_index(nullptr, 0) == AOTI_TORCH_FAILURE);
    COMPAT_EXPECT(clean_result(aoti_torch_delete_device_guard(nullptr)));
  }
  StreamHandle stream = nullptr;
  if (aoti_torch_get_current_stream(0, &stream) == AOTI_TORCH_SUCCESS) {
    int64_t id = -1;
    COMPAT_OK(aoti_torch_stream_id(stream, &id));
    COMPAT_OK(aoti_torch_delete_stream(stream));
  } else {
    int64_t id = -1;
    COMPAT_EXPECT(aoti_torch_stream_id(nullptr, &id) == AOTI_TORCH_FAILURE);
    COMPAT_EXPECT(clean_result(aoti_torch_delete_stream(nullptr)));
  }

#ifdef ABI_COMPAT_CUDA
  // CUDA: exported by every stabletorch core; a core without CUDA fails
  // cleanly. (PyTorch declares them only with USE_CUDA, and exports them
  // from libtorch_cuda.so.)
  CUDAGuardHandle cuda_guard = nullptr;
  if (aoti_torch_create_cuda_guard(0, &cuda_guard) == AOTI_TORCH_SUCCESS) {
    COMPAT_OK(aoti_torch_cuda_guard_set_index(cuda_guard, 0));
    COMPAT_OK(aoti_torch_delete_cuda_guard(cuda_guard));
  } else {
    COMPAT_EXPECT(aoti_torch_cuda_guard_set_index(nullptr, 0) == AOTI_TORCH_FAILURE);
    COMPAT_EXPECT(clean_result(aoti_torch_delete_cuda_guard(nullptr)));
  }
  void* cuda_stream = nullptr;
  bool have_cuda_stream = aoti_torch_get_current_cuda_stream(0, &cuda_stream) == AOTI_TORCH_SUCCESS;
  CUDAStreamGuardHandle stream_guard = nullptr;
  if (have_cuda_stream &&
      aoti_torch_create_cuda_stream_guard(cuda_stream, 0, &stream_guard) == AOTI_TORCH_SUCCESS) {
    COMPAT_OK(aoti_torch_delete_cuda_stream_guard(stream_guard));
  } else {
    COMPAT_EXPECT(clean_result(aoti_torch_create_cuda_stream_guard(nullptr, 0, &stream_guard)));
    if (stream_guard == nullptr) {
      COMPAT_EXPECT(clean_result(aoti_torch_delete_cuda_stream_guard(nullptr)));
    } else {
      COMPAT_OK(aoti_torch_delete_cuda_stream_guard(stream_guard));
    }
  }
  void* device_memory = nullptr;
  if (aoti_torch_cuda_caching_allocator_raw_alloc(64, &device_memory) == AOTI_TORCH_SUCCESS) {
    COMPAT_OK(aoti_torch_cuda_caching_allocator_raw_delete(device_memory));
  } else {
    COMPAT_EXPECT(clean_result(aoti_torch_cuda_caching_allocator_raw_delete(nullptr)));
  }
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  void* blas = nullptr;
  COMPAT_EXPECT(clean_result(torch_get_current_cuda_blas_handle(&blas)));
  void* pool_stream = nullptr;
  if (torch_get_cuda_stream_from_pool(false, 0, &pool_stream) == AOTI_TORCH_SUCCESS) {
    COMPAT_OK(torch_cuda_stream_synchronize(pool_stream, 0));
    COMPAT_EXPECT(clean_result(torch_set_current_cuda_stream(cuda_stream, 0)));
  } else {
    COMPAT_EXPECT(clean_result(torch_cuda_stream_synchronize(nullptr, 0)));
    COMPAT_EXPECT(clean_result(torch_set_current_cuda_stream(nullptr, 0)));
  }
  char* msg = nullptr;
  COMPAT_EXPECT(
      clean_result(torch_c10_cuda_check_msg(0, __FILE__, __func__, __LINE__, false, &msg)));
  torch_c10_cuda_free_error_msg(msg);  // NULL-safe
#endif
#endif  // ABI_COMPAT_CUDA

  aoti_torch_warn(__func__, __FILE__, __LINE__,
                  "abi_compat: this warning is expected (aoti_torch_warn is part of the ABI)");

#ifdef ABI_COMPAT_ADDITIONS
  // stabletorch's own functions.
  const char* version = stabletorch_version_string();
  COMPAT_EXPECT(version != nullptr && version[0] != '\0');
  COMPAT_EXPECT(stabletorch_version_number() >= 100);  // 0.1.0 or later
  COMPAT_EXPECT(stabletorch_abi_level() == aoti_torch_abi_version());
  failures += check_scalar_handles();
  int64_t live_before = -1, live_during = -1, live_after = -1;
  COMPAT_OK(stabletorch_live_handle_count(&live_before));
  AtenTensorHandle t = nullptr;
  COMPAT_OK(aoti_torch_new_uninitialized_tensor(&t));
  COMPAT_OK(stabletorch_live_handle_count(&live_during));
  COMPAT_OK(aoti_torch_delete_tensor_object(t));
  COMPAT_OK(stabletorch_live_handle_count(&live_after));
  COMPAT_EXPECT(live_during == live_before + 1 && live_after == live_before);
#endif

  stack[0] = from_int(failures);
}

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
// ---- lists_and_strings(int[] xs, str s) -> int (2.10) --------------------
// Returns sum(xs) + len(s); the kernel also builds and edits its own list
// and string.

void lists_and_strings_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 2 && num_outputs == 1);
  StableListHandle xs = to_handle<StableListHandle>(stack[0]);
  StringHandle s = to_handle<StringHandle>(stack[1]);
  int64_t result = 0;
  size_t n = 0;
  COMPAT_OK(torch_list_size(xs, &n));
  for (size_t i = 0; i < n; ++i) {
    StableIValue item = 0;
    COMPAT_OK(torch_list_get_item(xs, i, &item));
    result += to_int(item);
  }
  size_t len = 0;
  const char* chars = nullptr;
  COMPAT_OK(torch_string_length(s, &len));
  COMPAT_OK(torch_string_c_str(s, &chars));
  COMPAT_EXPECT(chars != nullptr && std::strlen(chars) == len);
  result += static_cast<int64_t>(len);

  StableListHandle mine = nullptr;
  COMPAT_OK(torch_new_list_reserve_size(2, &mine));
  COMPAT_OK(torch_list_push_back(mine, from_int(5)));
  COMPAT_OK(torch_list_push_back(mine, from_int(6)));
  COMPAT_OK(torch_list_set_item(mine, 0, from_int(7)));
  StableIValue first = 0;
  size_t mine_size = 0;
  COMPAT_OK(torch_list_get_item(mine, 0, &first));
  COMPAT_OK(torch_list_size(mine, &mine_size));
  COMPAT_EXPECT(to_int(first) == 7 && mine_size == 2);
  COMPAT_OK(torch_delete_list(mine));
  StringHandle copy = nullptr;
  COMPAT_OK(torch_new_string_handle("a\0b", 3, &copy));
  size_t copy_len = 0;
  COMPAT_OK(torch_string_length(copy, &copy_len));
  COMPAT_EXPECT(copy_len == 3);
  COMPAT_OK(torch_delete_string(copy));

  COMPAT_OK(torch_delete_list(xs));
  COMPAT_OK(torch_delete_string(s));
  stack[0] = from_int(failures == 0 ? result : -1);
}

// ---- threads(Tensor x) -> int (2.10) --------------------------------------
// Returns the number of failures; sums x on the core's thread pool.

struct ParallelSum {
  const float* data;
  std::atomic<int64_t> sum_times_2;
  std::atomic<int64_t> bad_thread_idx;
  uint32_t num_threads;
};

void parallel_body(int64_t begin, int64_t end, void* ctx) {
  ParallelSum* p = static_cast<ParallelSum*>(ctx);
  uint32_t idx = 0;
  if (torch_get_thread_idx(&idx) != AOTI_TORCH_SUCCESS || idx >= p->num_threads) {
    p->bad_thread_idx.fetch_add(1);
  }
  int64_t local = 0;
  for (int64_t i = begin; i < end; ++i) {
    local += static_cast<int64_t>(2.0f * p->data[i]);
  }
  p->sum_times_2.fetch_add(local);
}

void threads_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t failures = 0;
  COMPAT_EXPECT(num_args == 1 && num_outputs == 1);
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);
  int64_t n = 0;
  COMPAT_OK(aoti_torch_get_numel(x, &n));
  ParallelSum p;
  p.data = float_data(x);
  p.sum_times_2 = 0;
  p.bad_thread_idx = 0;
  p.num_threads = 0;
  COMPAT_OK(torch_get_num_threads(&p.num_threads));
  COMPAT_EXPECT(p.num_threads >= 1);
  if (p.data != nullptr) {
    COMPAT_OK(torch_parallel_for(0, n, 1, &parallel_body, &p));
    int64_t expected = 0;
    for (int64_t i = 0; i < n; ++i) {
      expected += static_cast<int64_t>(2.0f * p.data[i]);
    }
    COMPAT_EXPECT(p.sum_times_2.load() == expected);
    COMPAT_EXPECT(p.bad_thread_idx.load() == 0);
  }
  uint32_t device_type = 99;
  int32_t device_index = 99;
  COMPAT_OK(torch_parse_device_string("cuda:1", &device_type, &device_index));
  COMPAT_EXPECT(device_type == static_cast<uint32_t>(aoti_torch_device_type_cuda()) &&
                device_index == 1);
  COMPAT_OK(torch_parse_device_string("cpu", &device_type, &device_index));
  COMPAT_EXPECT(device_type == static_cast<uint32_t>(aoti_torch_device_type_cpu()) &&
                device_index == -1);
  COMPAT_OK(torch_set_requires_grad(x, false));
  COMPAT_EXPECT(torch_set_requires_grad(x, true) == AOTI_TORCH_FAILURE);  // no autograd
  COMPAT_OK(aoti_torch_delete_tensor_object(x));
  stack[0] = from_int(failures);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
// The 2.11 dtype codes (c10 ordinals), and from_blob with a deleter: the
// deleter runs exactly once, when the last tensor viewing the data dies.
struct BlobDeleterLog {
  std::atomic<int> calls{0};
  void* seen = nullptr;
};

void count_blob_deleter(void* data, void* ctx) {
  auto* log = static_cast<BlobDeleterLog*>(ctx);
  log->seen = data;
  log->calls.fetch_add(1);
}

void level_2_11_kernel(StableIValue* stack, uint64_t, uint64_t) {
  int64_t failures = 0;
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);
  COMPAT_EXPECT(torch_dtype_float8_e8m0fnu() == 44);
  COMPAT_EXPECT(torch_dtype_float4_e2m1fn_x2() == 45);

  static float data[6] = {0, 1, 2, 3, 4, 5};
  BlobDeleterLog log;
  const int64_t sizes[2] = {2, 3};
  const int64_t strides[2] = {3, 1};
  AtenTensorHandle blob = nullptr;
  COMPAT_OK(torch_from_blob(data, 2, sizes, strides, 0, aoti_torch_dtype_float32(),
                            aoti_torch_device_type_cpu(), 0, &blob, aoti_torch_layout_strided(),
                            nullptr, 0, &count_blob_deleter, &log));
  void* p = nullptr;
  COMPAT_OK(aoti_torch_get_data_ptr(blob, &p));
  COMPAT_EXPECT(p == data);
  AtenTensorHandle alias = nullptr;
  COMPAT_OK(aoti_torch_new_tensor_handle(blob, &alias));
  COMPAT_OK(aoti_torch_delete_tensor_object(blob));
  COMPAT_EXPECT(log.calls.load() == 0);  // the alias still views the data
  COMPAT_OK(aoti_torch_delete_tensor_object(alias));
  COMPAT_EXPECT(log.calls.load() == 1 && log.seen == data);
  COMPAT_OK(aoti_torch_delete_tensor_object(x));
  stack[0] = from_int(failures);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
// The tag codes (the Tag ordinals, PyTorch's values too) and the
// aoti_torch_* spellings of the 2.11 dtype codes.
void level_2_12_kernel(StableIValue* stack, uint64_t, uint64_t) {
  int64_t failures = 0;
  COMPAT_EXPECT(torch_tag_core() == 0);
  COMPAT_EXPECT(torch_tag_cudagraph_unsafe() == 1);
  COMPAT_EXPECT(torch_tag_data_dependent_output() == 2);
  COMPAT_EXPECT(torch_tag_dynamic_output_shape() == 3);
  COMPAT_EXPECT(torch_tag_flexible_layout() == 4);
  COMPAT_EXPECT(torch_tag_generated() == 5);
  COMPAT_EXPECT(torch_tag_inplace_view() == 7);
  COMPAT_EXPECT(torch_tag_maybe_aliasing_or_mutating() == 8);
  COMPAT_EXPECT(torch_tag_needs_contiguous_strides() == 9);
  COMPAT_EXPECT(torch_tag_needs_exact_strides() == 10);
  COMPAT_EXPECT(torch_tag_needs_fixed_stride_order() == 11);
  COMPAT_EXPECT(torch_tag_nondeterministic_bitwise() == 12);
  COMPAT_EXPECT(torch_tag_nondeterministic_seeded() == 13);
  COMPAT_EXPECT(torch_tag_out_variant() == 15);
  COMPAT_EXPECT(torch_tag_pointwise() == 16);
  COMPAT_EXPECT(torch_tag_pt2_compliant_tag() == 17);
  COMPAT_EXPECT(torch_tag_reduction() == 18);
  COMPAT_EXPECT(torch_tag_view_copy() == 19);
  COMPAT_EXPECT(aoti_torch_dtype_float8_e8m0fnu() == 44);
  COMPAT_EXPECT(aoti_torch_dtype_float4_e2m1fn_x2() == 45);
  stack[0] = from_int(failures);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
#ifdef ABI_COMPAT_ADDITIONS
// Generators (made and seeded through stabletorch's additions): two handles
// of one generator share its seed; the device is the CPU.
int64_t check_generators() {
  int64_t failures = 0;
  AtenGeneratorHandle g = nullptr;
  AtenGeneratorHandle copy = nullptr;
  AtenGeneratorHandle def = nullptr;
  COMPAT_OK(stabletorch_new_generator(aoti_torch_device_type_cpu(), 5, &g));
  COMPAT_OK(torch_new_generator_handle(g, &copy));
  int32_t type = -1, index = 0;
  COMPAT_OK(torch_generator_get_device(copy, &type, &index));
  COMPAT_EXPECT(type == aoti_torch_device_type_cpu() && index == -1);
  uint64_t seed = 0;
  COMPAT_OK(stabletorch_generator_manual_seed(copy, 77));
  COMPAT_OK(stabletorch_generator_initial_seed(g, &seed));
  COMPAT_EXPECT(seed == 77);
  COMPAT_OK(stabletorch_generator_seed(g, &seed));
  COMPAT_OK(stabletorch_default_generator(aoti_torch_device_type_cpu(), &def));
  COMPAT_OK(torch_delete_generator(def));
  COMPAT_OK(torch_delete_generator(copy));
  COMPAT_OK(torch_delete_generator(g));
  COMPAT_EXPECT(torch_delete_generator(g) == AOTI_TORCH_FAILURE);  // already deleted
  return failures;
}
#endif  // ABI_COMPAT_ADDITIONS

// The calling thread's error text after a failure, the heap slots of
// present optionals, the current stream's native handle (which the
// CPU's stream has not: a clean failure), and generators.
void level_2_13_kernel(StableIValue* stack, uint64_t, uint64_t) {
  int64_t failures = 0;
  int64_t dim = 0;
  COMPAT_EXPECT(aoti_torch_get_dim(nullptr, &dim) == AOTI_TORCH_FAILURE);
  const char* what = torch_exception_get_what();
  const char* short_what = torch_exception_get_what_without_backtrace();
  COMPAT_EXPECT(what != nullptr && what[0] != '\0');
  COMPAT_EXPECT(short_what != nullptr && short_what[0] != '\0');

  StableIValue* slot = nullptr;
  COMPAT_OK(torch_new_stable_ivalue(&slot));
  COMPAT_EXPECT(slot != nullptr && *slot == 0);
  if (slot != nullptr) {
    *slot = from_int(7);
    COMPAT_OK(torch_delete_stable_ivalue(slot));
  }

  StreamHandle stream = nullptr;
  COMPAT_OK(aoti_torch_get_current_stream(-1, &stream));
  void* native = nullptr;
  if (torch_stream_native_handle(stream, &native) != AOTI_TORCH_SUCCESS) {
    const char* why = torch_exception_get_what_without_backtrace();
    COMPAT_EXPECT(why != nullptr && why[0] != '\0');
  }
  COMPAT_OK(aoti_torch_delete_stream(stream));
#ifdef ABI_COMPAT_ADDITIONS
  failures += check_generators();
#endif
  stack[0] = from_int(failures);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0
// has_storage: a factory-made tensor has one.
void level_2_14_kernel(StableIValue* stack, uint64_t, uint64_t) {
  int64_t failures = 0;
  AtenTensorHandle x = to_handle<AtenTensorHandle>(stack[0]);
  bool has = false;
  COMPAT_OK(torch_has_storage(x, &has));
  COMPAT_EXPECT(has);
  COMPAT_OK(aoti_torch_delete_tensor_object(x));
  stack[0] = from_int(failures);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0

// ---- Registration ----------------------------------------------------------
// At load time (static initialization), undone at unload.

using BoxedKernel = void (*)(StableIValue*, uint64_t, uint64_t);

struct Registration {
  TorchLibraryHandle def = nullptr;
  TorchLibraryHandle fragment = nullptr;
  TorchLibraryHandle impl = nullptr;            // CPU kernels
  TorchLibraryHandle impl_composite = nullptr;  // kernels of tensor-less ops

  Registration() {
    int64_t failures = 0;
    COMPAT_OK(aoti_torch_library_init_def("abi_compat", __FILE__, __LINE__, &def));
    COMPAT_OK(aoti_torch_library_def(def, "constants() -> int"));
    COMPAT_OK(aoti_torch_library_def(def, "tensor_api(Tensor x) -> Tensor"));
    COMPAT_OK(aoti_torch_library_def(def, "axpy(Tensor x, Tensor y, float alpha) -> Tensor"));
    COMPAT_OK(aoti_torch_library_init_fragment("abi_compat", __FILE__, __LINE__, &fragment));
    COMPAT_OK(aoti_torch_library_def(fragment, "nested(Tensor x, int times) -> Tensor"));
    COMPAT_OK(aoti_torch_library_def(fragment, "runtime_api() -> int"));
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
    COMPAT_OK(aoti_torch_library_def(fragment, "lists_and_strings(int[] xs, str s) -> int"));
    COMPAT_OK(aoti_torch_library_def(fragment, "threads(Tensor x) -> int"));
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
    COMPAT_OK(aoti_torch_library_def(fragment, "level_2_11(Tensor x) -> int"));
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
    {
      const int32_t tags[] = {torch_tag_core()};
      COMPAT_OK(torch_library_def_with_tags(fragment, "level_2_12() -> int", tags, 1));
    }
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
    COMPAT_OK(aoti_torch_library_def(fragment, "level_2_13() -> int"));
    COMPAT_OK(torch_library_set_python_module(fragment, "abi_compat_py", "compat plugin"));
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0
    COMPAT_OK(aoti_torch_library_def(fragment, "level_2_14(Tensor x) -> int"));
#endif
    COMPAT_OK(aoti_torch_library_init_impl("abi_compat", "CPU", __FILE__, __LINE__, &impl));
    // Operators without tensor arguments have no backend to dispatch on:
    // their kernels are CompositeExplicitAutograd.
    COMPAT_OK(aoti_torch_library_init_impl("abi_compat", "CompositeExplicitAutograd", __FILE__,
                                           __LINE__, &impl_composite));
    add(impl, "tensor_api", &tensor_api_kernel, false);
#ifdef ABI_COMPAT_HAS_IMPL_WITH_SIGNATURE
    COMPAT_OK(
        stabletorch_library_impl_with_signature(impl, "axpy", &axpy_kernel, TORCH_ABI_VERSION,
                                                "(Tensor x, Tensor y, float alpha) -> Tensor"));
#else
    add(impl, "axpy", &axpy_kernel, false);
#endif
    add(impl, "nested", &nested_kernel, true);
    add(impl_composite, "constants", &constants_kernel, true);
    add(impl_composite, "runtime_api", &runtime_api_kernel, false);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
    add(impl_composite, "lists_and_strings", &lists_and_strings_kernel, true);
    add(impl, "threads", &threads_kernel, false);
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
    add(impl, "level_2_11", &level_2_11_kernel, true);
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
    add(impl_composite, "level_2_12", &level_2_12_kernel, true);
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
    add(impl_composite, "level_2_13", &level_2_13_kernel, true);
#endif
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0
    add(impl, "level_2_14", &level_2_14_kernel, true);
#endif
    (void)failures;  // recorded in the log the host reads
  }

  // versioned: register through torch_library_impl (2.10) when the level
  // has it, so both registration entry points are exercised.
  void add(TorchLibraryHandle lib, const char* name, BoxedKernel fn, bool versioned) {
    int64_t failures = 0;
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
    if (versioned) {
      COMPAT_OK(torch_library_impl(lib, name, fn, TORCH_ABI_VERSION));
      return;
    }
#else
    (void)versioned;
#endif
    COMPAT_OK(aoti_torch_library_impl(lib, name, fn));
    (void)failures;  // recorded in the log the host reads
  }

  ~Registration() {
    // Newest first; failures here cannot be reported and are ignored (a
    // loader may already have deregistered everything).
    for (TorchLibraryHandle h : {impl_composite, impl, fragment, def}) {
      if (h != nullptr) {
        (void)aoti_torch_delete_library_object(h);
      }
    }
  }
};

Registration g_registration;

}  // namespace
}  // namespace abi_compat

// The host's window into the plugin (looked up with dlsym).
ABI_COMPAT_EXPORT const char* abi_compat_report(int64_t* ret_failures) {
  *ret_failures = abi_compat::g_log.count;
  abi_compat::g_log.text[abi_compat::g_log.used] = '\0';
  return abi_compat::g_log.text;
}
ABI_COMPAT_EXPORT uint64_t abi_compat_feature_level(void) { return TORCH_FEATURE_VERSION; }
ABI_COMPAT_EXPORT uint64_t abi_compat_build_level(void) { return TORCH_ABI_VERSION; }
