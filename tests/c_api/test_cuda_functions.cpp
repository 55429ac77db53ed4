// The C ABI's CUDA functions in a core built with the CUDA backend
// (test_cuda_stubs.cpp covers a core built without it). The device tests
// use the real CUDA runtime and skip, saying so, when it reports no device;
// without a device every function must fail cleanly instead.
#include <cuda_runtime_api.h>

#include <string>

#include "c_api_test_util.h"

using namespace stc_test;

namespace {

int cuda_devices() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

#define SKIP_WITHOUT_GPU()                                                                \
  do {                                                                                    \
    if (cuda_devices() == 0) GTEST_SKIP() << "cudaGetDeviceCount reports no CUDA device"; \
  } while (0)

class CudaFunctionsTest : public CApiTest {};

TEST_F(CudaFunctionsTest, WithoutADeviceEveryFunctionFailsCleanly) {
  if (cuda_devices() > 0) GTEST_SKIP() << "a CUDA device is present";
  const char* kMsg = "no cuda device is available";
  CUDAGuardHandle g = nullptr;
  CUDAStreamGuardHandle sg = nullptr;
  void* p = nullptr;
  EXPECT_C_FAILURE(aoti_torch_create_cuda_guard(0, &g), "aoti_torch_create_cuda_guard", kMsg);
  EXPECT_C_FAILURE(aoti_torch_create_cuda_stream_guard(nullptr, 0, &sg),
                   "aoti_torch_create_cuda_stream_guard", kMsg);
  EXPECT_C_FAILURE(aoti_torch_get_current_cuda_stream(0, &p), "aoti_torch_get_current_cuda_stream",
                   kMsg);
  EXPECT_C_FAILURE(aoti_torch_cuda_caching_allocator_raw_alloc(16, &p),
                   "aoti_torch_cuda_caching_allocator_raw_alloc", kMsg);
  EXPECT_C_FAILURE(torch_get_current_cuda_blas_handle(&p), "torch_get_current_cuda_blas_handle",
                   kMsg);
  EXPECT_C_FAILURE(torch_set_current_cuda_stream(nullptr, 0), "torch_set_current_cuda_stream",
                   kMsg);
  EXPECT_C_FAILURE(torch_get_cuda_stream_from_pool(true, 0, &p), "torch_get_cuda_stream_from_pool",
                   kMsg);
  EXPECT_C_FAILURE(torch_cuda_stream_synchronize(nullptr, 0), "torch_cuda_stream_synchronize",
                   kMsg);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(sg, nullptr);
  EXPECT_EQ(p, nullptr);
  // Deleting null handles and pointers is a no-op everywhere.
  EXPECT_C_OK(aoti_torch_delete_cuda_guard(nullptr));
  EXPECT_C_OK(aoti_torch_delete_cuda_stream_guard(nullptr));
  EXPECT_C_OK(aoti_torch_cuda_caching_allocator_raw_delete(nullptr));
  // A pointer the allocator never handed out is refused by name.
  int not_device_memory = 0;
  EXPECT_C_FAILURE(aoti_torch_cuda_caching_allocator_raw_delete(&not_device_memory),
                   "aoti_torch_cuda_caching_allocator_raw_delete", "was not allocated by");
}

TEST_F(CudaFunctionsTest, CheckMessageNeedsNoDevice) {
  char* msg = nullptr;
  ASSERT_C_OK(torch_c10_cuda_check_msg(0, "f.cu", "fn", 3, false, &msg));
  EXPECT_EQ(msg, nullptr);  // cudaSuccess: no message
  ASSERT_C_OK(torch_c10_cuda_check_msg(static_cast<int32_t>(cudaErrorInvalidValue), "file.cu",
                                       "kernel_fn", 42, true, &msg));
  ASSERT_NE(msg, nullptr);
  const std::string text = msg;
  EXPECT_NE(text.find("CUDA error: invalid argument"), std::string::npos) << text;
  EXPECT_NE(text.find("cudaErrorInvalidValue"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel_fn at file.cu:42"), std::string::npos) << text;
  torch_c10_cuda_free_error_msg(msg);
  torch_c10_cuda_free_error_msg(nullptr);
  EXPECT_C_FAILURE(torch_c10_cuda_check_msg(1, "f", "g", 1, false, nullptr),
                   "torch_c10_cuda_check_msg", "null output");
}

TEST_F(CudaFunctionsTest, GuardSetsAndRestoresTheDevice) {
  SKIP_WITHOUT_GPU();
  int before = -1;
  ASSERT_EQ(cudaGetDevice(&before), cudaSuccess);
  CUDAGuardHandle g = nullptr;
  ASSERT_C_OK(aoti_torch_create_cuda_guard(cuda_devices() - 1, &g));
  int now = -1;
  ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
  EXPECT_EQ(now, cuda_devices() - 1);
  EXPECT_C_OK(aoti_torch_cuda_guard_set_index(g, 0));
  ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
  EXPECT_EQ(now, 0);
  EXPECT_C_FAILURE(aoti_torch_cuda_guard_set_index(g, cuda_devices()),
                   "aoti_torch_cuda_guard_set_index", "out of range");
  EXPECT_C_OK(aoti_torch_delete_cuda_guard(g));
  ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
  EXPECT_EQ(now, before);
  EXPECT_C_FAILURE(aoti_torch_create_cuda_guard(cuda_devices(), &g), "aoti_torch_create_cuda_guard",
                   "out of range");
}

TEST_F(CudaFunctionsTest, StreamsFromThePoolBecomeCurrent) {
  SKIP_WITHOUT_GPU();
  void* current = reinterpret_cast<void*>(1);
  ASSERT_C_OK(aoti_torch_get_current_cuda_stream(0, &current));
  EXPECT_EQ(current, nullptr);  // the default stream
  void* pooled = nullptr;
  ASSERT_C_OK(torch_get_cuda_stream_from_pool(false, 0, &pooled));
  ASSERT_NE(pooled, nullptr);
  {
    CUDAStreamGuardHandle sg = nullptr;
    ASSERT_C_OK(aoti_torch_create_cuda_stream_guard(pooled, 0, &sg));
    ASSERT_C_OK(aoti_torch_get_current_cuda_stream(0, &current));
    EXPECT_EQ(current, pooled);
    EXPECT_C_OK(torch_cuda_stream_synchronize(pooled, 0));
    EXPECT_C_OK(aoti_torch_delete_cuda_stream_guard(sg));
  }
  ASSERT_C_OK(aoti_torch_get_current_cuda_stream(0, &current));
  EXPECT_EQ(current, nullptr);
  ASSERT_C_OK(torch_set_current_cuda_stream(pooled, 0));
  ASSERT_C_OK(aoti_torch_get_current_cuda_stream(-1, &current));
  EXPECT_EQ(current, pooled);
  ASSERT_C_OK(torch_set_current_cuda_stream(nullptr, 0));
  void* blas = nullptr;
  ASSERT_C_OK(torch_get_current_cuda_blas_handle(&blas));
  EXPECT_NE(blas, nullptr);
}

TEST_F(CudaFunctionsTest, CachingAllocatorRawAllocAndDelete) {
  SKIP_WITHOUT_GPU();
  void* p = nullptr;
  ASSERT_C_OK(aoti_torch_cuda_caching_allocator_raw_alloc(1000, &p));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(cudaMemset(p, 0, 1000), cudaSuccess);
  EXPECT_C_OK(aoti_torch_cuda_caching_allocator_raw_delete(p));
  EXPECT_C_FAILURE(aoti_torch_cuda_caching_allocator_raw_delete(p),
                   "aoti_torch_cuda_caching_allocator_raw_delete", "already freed");
  void* again = nullptr;
  ASSERT_C_OK(aoti_torch_cuda_caching_allocator_raw_alloc(900, &again));
  EXPECT_EQ(again, p);  // the cached block of the same size class
  EXPECT_C_OK(aoti_torch_cuda_caching_allocator_raw_delete(again));
}

}  // namespace
