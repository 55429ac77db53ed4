#include <torch/headeronly/util/shim_utils.h>

#include <gtest/gtest.h>

#include <string>

namespace {

int succeed() { return TORCH_SUCCESS; }
int fail() { return TORCH_FAILURE; }

TEST(ShimUtils, Codes) {
  EXPECT_EQ(TORCH_SUCCESS, 0);
  EXPECT_EQ(TORCH_FAILURE, 1);
}

TEST(ShimUtils, ErrorCodeCheckThrowsNamingTheCall) {
  EXPECT_NO_THROW(TORCH_ERROR_CODE_CHECK(succeed()));
  try {
    TORCH_ERROR_CODE_CHECK(fail());
    FAIL() << "a failing call must throw";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fail() API call failed at"), std::string::npos) << msg;
    EXPECT_NE(msg.find("test_shim_utils.cpp, line"), std::string::npos) << msg;
  }
}

TEST(ShimUtils, ErrorCodeCheckIsASingleStatement) {
  int calls = 0;
  auto counted = [&] {
    ++calls;
    return TORCH_SUCCESS;
  };
  if (true)
    TORCH_ERROR_CODE_CHECK(counted());
  else
    ADD_FAILURE();
  EXPECT_EQ(calls, 1);
}

}  // namespace
