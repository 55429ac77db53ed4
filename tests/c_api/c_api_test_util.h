// Shared by the C ABI tests: the leak-checking fixture, failure matchers,
// small tensor helpers, and declarations of the functions from levels newer
// than the headers' own (the headers hide them; the library exports them).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/tensor_impl.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

extern "C" {
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_11_0
AOTI_TORCH_EXPORT int32_t torch_dtype_float8_e8m0fnu(void);
AOTI_TORCH_EXPORT int32_t torch_dtype_float4_e2m1fn_x2(void);
AOTI_TORCH_EXPORT AOTITorchError torch_from_blob(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata,
    int64_t opaque_metadata_size, void (*deleter)(void* data, void* ctx), void* deleter_ctx);
#endif
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_12_0
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e8m0fnu(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float4_e2m1fn_x2(void);
AOTI_TORCH_EXPORT int32_t torch_tag_core(void);
AOTI_TORCH_EXPORT int32_t torch_tag_cudagraph_unsafe(void);
AOTI_TORCH_EXPORT int32_t torch_tag_data_dependent_output(void);
AOTI_TORCH_EXPORT int32_t torch_tag_dynamic_output_shape(void);
AOTI_TORCH_EXPORT int32_t torch_tag_flexible_layout(void);
AOTI_TORCH_EXPORT int32_t torch_tag_generated(void);
AOTI_TORCH_EXPORT int32_t torch_tag_inplace_view(void);
AOTI_TORCH_EXPORT int32_t torch_tag_maybe_aliasing_or_mutating(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_contiguous_strides(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_exact_strides(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_fixed_stride_order(void);
AOTI_TORCH_EXPORT int32_t torch_tag_nondeterministic_bitwise(void);
AOTI_TORCH_EXPORT int32_t torch_tag_nondeterministic_seeded(void);
AOTI_TORCH_EXPORT int32_t torch_tag_out_variant(void);
AOTI_TORCH_EXPORT int32_t torch_tag_pointwise(void);
AOTI_TORCH_EXPORT int32_t torch_tag_pt2_compliant_tag(void);
AOTI_TORCH_EXPORT int32_t torch_tag_reduction(void);
AOTI_TORCH_EXPORT int32_t torch_tag_view_copy(void);
AOTI_TORCH_EXPORT AOTITorchError torch_library_def_with_tags(TorchLibraryHandle self,
                                                             const char* schema,
                                                             const int32_t* tags, int32_t num_tags);
#endif
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_13_0
AOTI_TORCH_EXPORT AOTITorchError torch_library_set_python_module(TorchLibraryHandle self,
                                                                 const char* pymodule,
                                                                 const char* context);
AOTI_TORCH_EXPORT AOTITorchError torch_stream_native_handle(StreamHandle stream,
                                                            void** ret_native_handle);
AOTI_TORCH_EXPORT const char* torch_exception_get_what(void);
AOTI_TORCH_EXPORT const char* torch_exception_get_what_without_backtrace(void);
AOTI_TORCH_EXPORT AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value);
AOTI_TORCH_EXPORT AOTITorchError torch_delete_stable_ivalue(StableIValue* value);
AOTI_TORCH_EXPORT AOTITorchError torch_new_generator_handle(AtenGeneratorHandle self,
                                                            AtenGeneratorHandle* ret_new_generator);
AOTI_TORCH_EXPORT AOTITorchError torch_delete_generator(AtenGeneratorHandle generator);
AOTI_TORCH_EXPORT AOTITorchError torch_generator_get_device(AtenGeneratorHandle generator,
                                                            int32_t* ret_device_type,
                                                            int32_t* ret_device_index);
#endif
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_14_0
AOTI_TORCH_EXPORT AOTITorchError torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage);
AOTI_TORCH_EXPORT AOTITorchError torch_tensor_from_pyobject(void* py_obj, AtenTensorHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError torch_tensor_to_pyobject(AtenTensorHandle ath, void* py_type,
                                                          void** ret);
#endif
#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_15_0
AOTI_TORCH_EXPORT AOTITorchError torch_is_tensor_pyobject(void* py_obj, bool* ret);
AOTI_TORCH_EXPORT AOTITorchError torch_dtype_from_pyobject(void* py_obj, int32_t* ret_dtype);
AOTI_TORCH_EXPORT AOTITorchError torch_dtype_to_pyobject(int32_t dtype, void** ret);
AOTI_TORCH_EXPORT AOTITorchError torch_device_from_pyobject(void* py_obj, int32_t* ret_device_type,
                                                            int32_t* ret_device_index);
AOTI_TORCH_EXPORT AOTITorchError torch_device_to_pyobject(int32_t device_type, int32_t device_index,
                                                          void** ret);
#endif
}

namespace stc_test {

inline std::string last_error() { return torch_exception_get_what_without_backtrace(); }

// After every test: no live handle, and the core's live-tensor and CPU
// allocator counters back where they were before the test.
class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tensors_before_ = st::live_tensor_count();
    allocations_before_ = st::cpu_allocator_stats().live_allocations;
    bytes_before_ = st::cpu_allocator_stats().bytes_in_use;
    EXPECT_EQ(stabletorch_live_handle_count(&handles_before_), AOTI_TORCH_SUCCESS);
  }
  void TearDown() override {
    int64_t handles = -1;
    ASSERT_EQ(stabletorch_live_handle_count(&handles), AOTI_TORCH_SUCCESS);
    EXPECT_EQ(handles, handles_before_) << "C ABI handles leaked";
    EXPECT_EQ(st::live_tensor_count(), tensors_before_) << "TensorImpls leaked";
    EXPECT_EQ(st::cpu_allocator_stats().live_allocations, allocations_before_)
        << "CPU allocations leaked";
    EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes_before_) << "CPU bytes leaked";
  }

 private:
  int64_t handles_before_ = 0;
  int64_t tensors_before_ = 0;
  int64_t allocations_before_ = 0;
  int64_t bytes_before_ = 0;
};

// A failure whose message names `function` and contains `needle`.
#define EXPECT_C_FAILURE(call, function, needle)                       \
  do {                                                                 \
    EXPECT_EQ((call), AOTI_TORCH_FAILURE) << #call;                    \
    const std::string stc_msg_ = ::stc_test::last_error();             \
    EXPECT_NE(stc_msg_.find(function), std::string::npos) << stc_msg_; \
    EXPECT_NE(stc_msg_.find(needle), std::string::npos) << stc_msg_;   \
  } while (0)

#define ASSERT_C_OK(call) ASSERT_EQ((call), AOTI_TORCH_SUCCESS) << ::stc_test::last_error()
#define EXPECT_C_OK(call) EXPECT_EQ((call), AOTI_TORCH_SUCCESS) << ::stc_test::last_error()

// A contiguous CPU tensor of `sizes` and dtype, values 0, 1, 2, ... when
// float32 / int64.
AtenTensorHandle make_tensor(std::vector<int64_t> sizes,
                             int32_t dtype = aoti_torch_dtype_float32());
// A float32 tensor filled with `values` (1-d).
AtenTensorHandle make_floats(std::vector<float> values);
std::vector<float> read_floats(AtenTensorHandle t);

// A handle of every kind, already deleted (for "already deleted" tests).
AtenTensorHandle deleted_tensor();
// A pointer that is no handle of ours.
template <typename H>
H foreign() {
  alignas(64) static unsigned char junk[128] = {};
  return reinterpret_cast<H>(junk);
}

// True when the core has registered operator name.overload.
bool has_op(const char* name, const char* overload = "");

inline StableIValue from_ptr(const void* p) {
  return static_cast<StableIValue>(reinterpret_cast<uintptr_t>(p));
}
template <typename H>
H to_ptr(StableIValue v) {
  return reinterpret_cast<H>(static_cast<uintptr_t>(v));
}

}  // namespace stc_test
