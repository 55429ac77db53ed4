// The thread-local last error and the exception getters.
#include "c_api_test_util.h"

#include <thread>

using namespace stc_test;

class ErrorStateTest : public CApiTest {};

TEST_F(ErrorStateTest, MessageNamesFunctionAndProblem) {
  int64_t dim = 0;
  ASSERT_EQ(aoti_torch_get_dim(nullptr, &dim), AOTI_TORCH_FAILURE);
  const std::string short_msg = torch_exception_get_what_without_backtrace();
  const std::string full = torch_exception_get_what();
  EXPECT_EQ(short_msg, "aoti_torch_get_dim: tensor: null tensor handle");
  EXPECT_EQ(full.rfind(short_msg, 0), 0u) << full;
  EXPECT_NE(full.find("caught at the C ABI boundary in aoti_torch_get_dim"), std::string::npos);
}

TEST_F(ErrorStateTest, SuccessKeepsTheLastError) {
  int64_t dim = 0;
  ASSERT_EQ(aoti_torch_get_dim(nullptr, &dim), AOTI_TORCH_FAILURE);
  AtenTensorHandle t = make_tensor({1});
  ASSERT_C_OK(aoti_torch_get_dim(t, &dim));
  EXPECT_NE(last_error().find("aoti_torch_get_dim"), std::string::npos);
  aoti_torch_delete_tensor_object(t);
}

TEST_F(ErrorStateTest, ErrorsAreThreadLocal) {
  int64_t dim = 0;
  ASSERT_EQ(aoti_torch_get_dim(nullptr, &dim), AOTI_TORCH_FAILURE);
  std::string other;
  std::thread([&other] {
    other = torch_exception_get_what();
    size_t n = 0;
    EXPECT_EQ(torch_list_size(nullptr, &n), AOTI_TORCH_FAILURE);
  }).join();
  EXPECT_EQ(other, "");  // a fresh thread has no error
  EXPECT_NE(last_error().find("aoti_torch_get_dim"), std::string::npos);  // not overwritten
}
