// StringHandle functions.
#include "c_api_test_util.h"

using namespace stc_test;

class StringsTest : public CApiTest {};

TEST_F(StringsTest, BytesWithNulsRoundTrip) {
  StringHandle s = nullptr;
  ASSERT_C_OK(torch_new_string_handle("ab\0cd", 5, &s));
  size_t n = 0;
  ASSERT_C_OK(torch_string_length(s, &n));
  EXPECT_EQ(n, 5u);
  const char* p = nullptr;
  ASSERT_C_OK(torch_string_c_str(s, &p));
  EXPECT_EQ(std::string(p, 5), std::string("ab\0cd", 5));
  EXPECT_EQ(p[5], '\0');
  ASSERT_C_OK(torch_delete_string(s));
  ASSERT_C_OK(torch_new_string_handle(nullptr, 0, &s));  // empty
  ASSERT_C_OK(torch_string_length(s, &n));
  EXPECT_EQ(n, 0u);
  ASSERT_C_OK(torch_delete_string(s));
}

TEST_F(StringsTest, BadInput) {
  StringHandle s = nullptr;
  size_t n = 0;
  const char* p = nullptr;
  EXPECT_C_FAILURE(torch_new_string_handle(nullptr, 3, &s), "torch_new_string_handle",
                   "data: null pointer with length 3");
  EXPECT_C_FAILURE(torch_new_string_handle("x", 1, nullptr), "torch_new_string_handle",
                   "null output");
  ASSERT_C_OK(torch_new_string_handle("x", 1, &s));
  EXPECT_C_FAILURE(torch_string_length(s, nullptr), "torch_string_length", "null output");
  EXPECT_C_FAILURE(torch_string_c_str(s, nullptr), "torch_string_c_str", "null output");
  ASSERT_C_OK(torch_delete_string(s));
  EXPECT_C_FAILURE(torch_string_length(s, &n), "torch_string_length", "already deleted");
  EXPECT_C_FAILURE(torch_string_c_str(s, &p), "torch_string_c_str", "already deleted");
  EXPECT_C_FAILURE(torch_delete_string(s), "torch_delete_string", "already deleted");
  EXPECT_C_FAILURE(torch_string_length(nullptr, &n), "torch_string_length", "null string handle");
  EXPECT_C_FAILURE(torch_string_c_str(foreign<StringHandle>(), &p), "torch_string_c_str",
                   "foreign string handle");
  EXPECT_C_OK(torch_delete_string(nullptr));
}
