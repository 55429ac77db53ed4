// Runs the checks compiled as C in test_headers_are_c.c (both builds).
#include "c_api_test_util.h"

extern "C" int stc_c_code_mismatches_default(void);
extern "C" int stc_c_code_mismatches_2_9(void);

using namespace stc_test;

class HeadersAreCTest : public CApiTest {};

TEST_F(HeadersAreCTest, CodesAgreeWithC10AtTheHeadersLevel) {
  EXPECT_EQ(stc_c_code_mismatches_default(), 0);
}

TEST_F(HeadersAreCTest, CodesAgreeWithC10AtTarget2_9) { EXPECT_EQ(stc_c_code_mismatches_2_9(), 0); }
