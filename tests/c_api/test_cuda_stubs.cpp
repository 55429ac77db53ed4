// Every CUDA function exists and fails cleanly in a core without CUDA.
#include "c_api_test_util.h"

using namespace stc_test;

class CudaStubsTest : public CApiTest {};

TEST_F(CudaStubsTest, EveryFunctionFailsWithoutCudaButDeletingNull) {
  const char* kMsg = "this core was built without CUDA";
  CUDAGuardHandle g = nullptr;
  CUDAStreamGuardHandle sg = nullptr;
  void* p = nullptr;
  char* msg = nullptr;
  EXPECT_C_FAILURE(aoti_torch_create_cuda_guard(0, &g), "aoti_torch_create_cuda_guard", kMsg);
  // Deleting NULL is a no-op, as for every delete function; anything else
  // cannot have come from this core.
  EXPECT_C_OK(aoti_torch_delete_cuda_guard(nullptr));
  EXPECT_C_FAILURE(aoti_torch_delete_cuda_guard(reinterpret_cast<CUDAGuardHandle>(&g)),
                   "aoti_torch_delete_cuda_guard", kMsg);
  EXPECT_C_FAILURE(aoti_torch_cuda_guard_set_index(g, 0), "aoti_torch_cuda_guard_set_index", kMsg);
  EXPECT_C_FAILURE(aoti_torch_create_cuda_stream_guard(nullptr, 0, &sg),
                   "aoti_torch_create_cuda_stream_guard", kMsg);
  EXPECT_C_OK(aoti_torch_delete_cuda_stream_guard(nullptr));
  EXPECT_C_FAILURE(
      aoti_torch_delete_cuda_stream_guard(reinterpret_cast<CUDAStreamGuardHandle>(&sg)),
      "aoti_torch_delete_cuda_stream_guard", kMsg);
  EXPECT_C_FAILURE(aoti_torch_get_current_cuda_stream(0, &p), "aoti_torch_get_current_cuda_stream",
                   kMsg);
  EXPECT_C_FAILURE(aoti_torch_cuda_caching_allocator_raw_alloc(16, &p),
                   "aoti_torch_cuda_caching_allocator_raw_alloc", kMsg);
  EXPECT_C_OK(aoti_torch_cuda_caching_allocator_raw_delete(nullptr));
  EXPECT_C_FAILURE(aoti_torch_cuda_caching_allocator_raw_delete(&p),
                   "aoti_torch_cuda_caching_allocator_raw_delete", kMsg);
  EXPECT_C_FAILURE(torch_get_current_cuda_blas_handle(&p), "torch_get_current_cuda_blas_handle",
                   kMsg);
  EXPECT_C_FAILURE(torch_set_current_cuda_stream(nullptr, 0), "torch_set_current_cuda_stream",
                   kMsg);
  EXPECT_C_FAILURE(torch_get_cuda_stream_from_pool(true, 0, &p), "torch_get_cuda_stream_from_pool",
                   kMsg);
  EXPECT_C_FAILURE(torch_cuda_stream_synchronize(nullptr, 0), "torch_cuda_stream_synchronize",
                   kMsg);
  EXPECT_C_FAILURE(torch_c10_cuda_check_msg(0, __FILE__, "f", __LINE__, false, &msg),
                   "torch_c10_cuda_check_msg", kMsg);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(msg, nullptr);
  torch_c10_cuda_free_error_msg(nullptr);  // no-op
}
