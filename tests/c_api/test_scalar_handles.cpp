// StableScalarHandle: create, kind, exact reads, delete.
#include "c_api_test_util.h"

using namespace stc_test;

class ScalarHandlesTest : public CApiTest {};

TEST_F(ScalarHandlesTest, KindsAndReads) {
  StableScalarHandle b = nullptr, i = nullptr, d = nullptr, z = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_bool(true, &b));
  ASSERT_C_OK(stabletorch_scalar_from_int(INT64_MAX, &i));
  ASSERT_C_OK(stabletorch_scalar_from_double(2.5, &d));
  ASSERT_C_OK(stabletorch_scalar_from_complex(1.0, -2.0, &z));
  int32_t k = -1;
  ASSERT_C_OK(stabletorch_scalar_kind(b, &k));
  EXPECT_EQ(k, STABLETORCH_SCALAR_BOOL);
  ASSERT_C_OK(stabletorch_scalar_kind(i, &k));
  EXPECT_EQ(k, STABLETORCH_SCALAR_INT);
  ASSERT_C_OK(stabletorch_scalar_kind(d, &k));
  EXPECT_EQ(k, STABLETORCH_SCALAR_DOUBLE);
  ASSERT_C_OK(stabletorch_scalar_kind(z, &k));
  EXPECT_EQ(k, STABLETORCH_SCALAR_COMPLEX);
  bool bv = false;
  ASSERT_C_OK(stabletorch_scalar_to_bool(b, &bv));
  EXPECT_TRUE(bv);
  int64_t iv = 0;
  ASSERT_C_OK(stabletorch_scalar_to_int(i, &iv));
  EXPECT_EQ(iv, INT64_MAX);  // exact: no double round trip
  double dv = 0;
  ASSERT_C_OK(stabletorch_scalar_to_double(d, &dv));
  EXPECT_EQ(dv, 2.5);
  ASSERT_C_OK(stabletorch_scalar_to_double(b, &dv));
  EXPECT_EQ(dv, 1.0);
  double re = 0, im = 0;
  ASSERT_C_OK(stabletorch_scalar_to_complex(z, &re, &im));
  EXPECT_EQ(re, 1.0);
  EXPECT_EQ(im, -2.0);
  ASSERT_C_OK(stabletorch_scalar_to_complex(d, &re, &im));
  EXPECT_EQ(re, 2.5);
  EXPECT_EQ(im, 0.0);

  EXPECT_C_FAILURE(stabletorch_scalar_to_int(d, &iv), "stabletorch_scalar_to_int",
                   "expected an int scalar but it holds a double");
  EXPECT_C_FAILURE(stabletorch_scalar_to_bool(i, &bv), "stabletorch_scalar_to_bool",
                   "expected a bool scalar");
  EXPECT_C_FAILURE(stabletorch_scalar_to_double(z, &dv), "stabletorch_scalar_to_double", "complex");
  for (StableScalarHandle h : {b, i, d, z}) ASSERT_C_OK(stabletorch_delete_scalar(h));
}

TEST_F(ScalarHandlesTest, BadHandlesAndOutputs) {
  StableScalarHandle s = nullptr;
  int32_t k = 0;
  int64_t iv = 0;
  double re = 0;
  EXPECT_C_FAILURE(stabletorch_scalar_from_int(1, nullptr), "stabletorch_scalar_from_int",
                   "null output");
  EXPECT_C_FAILURE(stabletorch_scalar_from_bool(true, nullptr), "stabletorch_scalar_from_bool",
                   "null output");
  EXPECT_C_FAILURE(stabletorch_scalar_from_double(1, nullptr), "stabletorch_scalar_from_double",
                   "null output");
  EXPECT_C_FAILURE(stabletorch_scalar_from_complex(1, 1, nullptr),
                   "stabletorch_scalar_from_complex", "null output");
  EXPECT_C_FAILURE(stabletorch_scalar_kind(nullptr, &k), "stabletorch_scalar_kind",
                   "null scalar handle");
  EXPECT_C_FAILURE(stabletorch_scalar_to_int(foreign<StableScalarHandle>(), &iv),
                   "stabletorch_scalar_to_int", "foreign scalar handle");
  ASSERT_C_OK(stabletorch_scalar_from_int(3, &s));
  EXPECT_C_FAILURE(stabletorch_scalar_kind(s, nullptr), "stabletorch_scalar_kind", "null output");
  EXPECT_C_FAILURE(stabletorch_scalar_to_complex(s, &re, nullptr), "stabletorch_scalar_to_complex",
                   "null output");
  ASSERT_C_OK(stabletorch_delete_scalar(s));
  EXPECT_C_FAILURE(stabletorch_scalar_to_int(s, &iv), "stabletorch_scalar_to_int",
                   "already deleted");
  EXPECT_C_FAILURE(stabletorch_delete_scalar(s), "stabletorch_delete_scalar", "already deleted");
  EXPECT_C_OK(stabletorch_delete_scalar(nullptr));
}
