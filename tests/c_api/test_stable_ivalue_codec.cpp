// The StableIValue encodings, checked by a round trip through an operator
// that returns its arguments (stc_test::echo): every schema type the C ABI
// supports goes in as PyTorch encodes it and must come back identical.
#include "c_api_test_util.h"
#include "stc_test_ops.h"

#include <cstring>

using namespace stc_test;

namespace {

template <typename T>
StableIValue bits(T v) {
  StableIValue out = 0;
  std::memcpy(&out, &v, sizeof(T));
  return out;
}
template <typename T>
T unbits(StableIValue v) {
  T out;
  std::memcpy(&out, &v, sizeof(T));
  return out;
}
StableIValue device(int32_t type, int32_t index) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(type)) << 32) | static_cast<uint32_t>(index);
}
StableListHandle list(std::initializer_list<StableIValue> items) {
  StableListHandle l = nullptr;
  EXPECT_EQ(torch_new_list_reserve_size(items.size(), &l), AOTI_TORCH_SUCCESS);
  for (StableIValue v : items) EXPECT_EQ(torch_list_push_back(l, v), AOTI_TORCH_SUCCESS);
  return l;
}
std::vector<StableIValue> items_of(StableListHandle l) {
  size_t n = 0;
  EXPECT_EQ(torch_list_size(l, &n), AOTI_TORCH_SUCCESS);
  std::vector<StableIValue> out(n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(torch_list_get_item(l, i, &out[i]), AOTI_TORCH_SUCCESS);
  return out;
}
StringHandle str(const char* s) {
  StringHandle h = nullptr;
  EXPECT_EQ(torch_new_string_handle(s, std::strlen(s), &h), AOTI_TORCH_SUCCESS);
  return h;
}
std::string read_str(StringHandle h) {
  const char* p = nullptr;
  size_t n = 0;
  EXPECT_EQ(torch_string_c_str(h, &p), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(torch_string_length(h, &n), AOTI_TORCH_SUCCESS);
  return std::string(p, n);
}
void* data_of(StableIValue t) {
  void* p = nullptr;
  EXPECT_EQ(aoti_torch_get_data_ptr(to_ptr<AtenTensorHandle>(t), &p), AOTI_TORCH_SUCCESS);
  return p;
}

constexpr size_t kEchoArgs = 19;

}  // namespace

class StableIValueCodecTest : public CApiTest {
 protected:
  void SetUp() override {
    CApiTest::SetUp();
    register_test_ops();
  }
};

TEST_F(StableIValueCodecTest, EveryTypeRoundTrips) {
  AtenTensorHandle t = make_tensor({2});
  AtenTensorHandle t2 = make_tensor({3});
  AtenTensorHandle t3 = make_tensor({1});
  AtenTensorHandle t4 = make_tensor({4});
  void* t_data = nullptr;
  aoti_torch_get_data_ptr(t, &t_data);
  StableScalarHandle sc = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_int(INT64_MIN, &sc));
  StableIValue* opt_tensor = new StableIValue(from_ptr(t2));
  StableIValue* opt_int = nullptr;
  ASSERT_C_OK(torch_new_stable_ivalue(&opt_int));
  *opt_int = bits<int64_t>(-7);
  StableIValue* opt_in_list = new StableIValue(from_ptr(t4));

  StableIValue stack[kEchoArgs] = {
      from_ptr(t),
      bits<int64_t>(-42),
      bits<double>(0.1),
      bits<bool>(true),
      from_ptr(str("hi")),
      bits<int32_t>(aoti_torch_dtype_bfloat16()),
      bits<int32_t>(aoti_torch_layout_strided()),
      bits<int32_t>(aoti_torch_memory_format_channels_last()),
      device(aoti_torch_device_type_cuda(), 3),
      from_ptr(sc),
      from_ptr(opt_tensor),
      from_ptr(opt_int),
      from_ptr(list({bits<int64_t>(1), bits<int64_t>(-2)})),
      from_ptr(list({from_ptr(t3)})),
      from_ptr(list({bits<double>(1.5)})),
      from_ptr(list({bits<bool>(false), bits<bool>(true)})),
      from_ptr(list({from_ptr(str("a")), from_ptr(str("bc"))})),
      bits<int64_t>(INT64_MAX),
      from_ptr(list({0, from_ptr(opt_in_list)})),
  };
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_test::echo", "", stack));

  EXPECT_EQ(data_of(stack[0]), t_data);
  EXPECT_NE(to_ptr<AtenTensorHandle>(stack[0]), t);  // a new reference
  EXPECT_EQ(unbits<int64_t>(stack[1]), -42);
  EXPECT_EQ(unbits<double>(stack[2]), 0.1);
  EXPECT_EQ(stack[3], 1u);
  EXPECT_EQ(read_str(to_ptr<StringHandle>(stack[4])), "hi");
  EXPECT_EQ(stack[5], static_cast<uint64_t>(aoti_torch_dtype_bfloat16()));
  EXPECT_EQ(stack[6], static_cast<uint64_t>(aoti_torch_layout_strided()));
  EXPECT_EQ(stack[7], static_cast<uint64_t>(aoti_torch_memory_format_channels_last()));
  EXPECT_EQ(stack[8], device(aoti_torch_device_type_cuda(), 3));
  int64_t sv = 0;
  ASSERT_C_OK(stabletorch_scalar_to_int(to_ptr<StableScalarHandle>(stack[9]), &sv));
  EXPECT_EQ(sv, INT64_MIN);
  ASSERT_NE(stack[10], 0u);
  StableIValue* ot = to_ptr<StableIValue*>(stack[10]);
  int64_t numel = 0;
  ASSERT_C_OK(aoti_torch_get_numel(to_ptr<AtenTensorHandle>(*ot), &numel));
  EXPECT_EQ(numel, 3);
  StableIValue* oi = to_ptr<StableIValue*>(stack[11]);
  EXPECT_EQ(unbits<int64_t>(*oi), -7);
  auto il = items_of(to_ptr<StableListHandle>(stack[12]));
  ASSERT_EQ(il.size(), 2u);
  EXPECT_EQ(unbits<int64_t>(il[1]), -2);
  auto tl = items_of(to_ptr<StableListHandle>(stack[13]));
  ASSERT_EQ(tl.size(), 1u);
  auto fl = items_of(to_ptr<StableListHandle>(stack[14]));
  EXPECT_EQ(unbits<double>(fl.at(0)), 1.5);
  auto bl = items_of(to_ptr<StableListHandle>(stack[15]));
  EXPECT_EQ(bl, (std::vector<StableIValue>{0, 1}));
  auto sl = items_of(to_ptr<StableListHandle>(stack[16]));
  ASSERT_EQ(sl.size(), 2u);
  EXPECT_EQ(read_str(to_ptr<StringHandle>(sl[1])), "bc");
  EXPECT_EQ(unbits<int64_t>(stack[17]), INT64_MAX);
  auto otl = items_of(to_ptr<StableListHandle>(stack[18]));
  ASSERT_EQ(otl.size(), 2u);
  EXPECT_EQ(otl[0], 0u);
  ASSERT_NE(otl[1], 0u);

  // The caller owns every return: release them as an extension would.
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  torch_delete_string(to_ptr<StringHandle>(stack[4]));
  stabletorch_delete_scalar(to_ptr<StableScalarHandle>(stack[9]));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(*ot));
  delete ot;
  torch_delete_stable_ivalue(oi);
  torch_delete_list(to_ptr<StableListHandle>(stack[12]));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(tl[0]));
  torch_delete_list(to_ptr<StableListHandle>(stack[13]));
  torch_delete_list(to_ptr<StableListHandle>(stack[14]));
  torch_delete_list(to_ptr<StableListHandle>(stack[15]));
  for (StableIValue s : sl) torch_delete_string(to_ptr<StringHandle>(s));
  torch_delete_list(to_ptr<StableListHandle>(stack[16]));
  StableIValue* inner = to_ptr<StableIValue*>(otl[1]);
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(*inner));
  delete inner;
  torch_delete_list(to_ptr<StableListHandle>(stack[18]));
  // The arguments were stolen by the call.
  bool defined = false;
  EXPECT_EQ(aoti_torch_is_defined(t, &defined), AOTI_TORCH_FAILURE);
}

TEST_F(StableIValueCodecTest, NoneOptionalsAndCpuDevice) {
  AtenTensorHandle t = make_tensor({1});
  StableScalarHandle sc = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_double(2.0, &sc));
  StableIValue stack[kEchoArgs] = {from_ptr(t),
                                   0,
                                   0,
                                   0,
                                   from_ptr(str("")),
                                   bits<int32_t>(aoti_torch_dtype_float32()),
                                   0,
                                   0,
                                   device(aoti_torch_device_type_cpu(), 0),
                                   from_ptr(sc),
                                   0,
                                   0,
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   0,
                                   from_ptr(list({}))};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_test::echo", "", stack));
  EXPECT_EQ(stack[10], 0u);
  EXPECT_EQ(stack[11], 0u);
  // A Device argument cpu:0 keeps its index through the call (as in
  // PyTorch); only tensors made on it are plain "cpu".
  EXPECT_EQ(stack[8], device(aoti_torch_device_type_cpu(), 0));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  torch_delete_string(to_ptr<StringHandle>(stack[4]));
  stabletorch_delete_scalar(to_ptr<StableScalarHandle>(stack[9]));
  for (int i : {12, 13, 14, 15, 16, 18}) torch_delete_list(to_ptr<StableListHandle>(stack[i]));
}

TEST_F(StableIValueCodecTest, BadCodesAreReportedPerArgumentAndNothingLeaks) {
  AtenTensorHandle t = make_tensor({1});
  AtenTensorHandle t2 = make_tensor({1});
  StableScalarHandle sc = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_double(2.0, &sc));
  StableIValue* opt_tensor = new StableIValue(from_ptr(t2));
  StableIValue stack[kEchoArgs] = {from_ptr(t),
                                   0,
                                   0,
                                   0,
                                   from_ptr(str("s")),
                                   bits<int32_t>(12) /* QInt8 */,
                                   bits<int32_t>(99) /* layout */,
                                   bits<int32_t>(7) /* memory format */,
                                   device(77, 0),
                                   from_ptr(sc),
                                   from_ptr(opt_tensor),
                                   0,
                                   from_ptr(list({})),
                                   from_ptr(list({bits<int64_t>(5)})) /* not a tensor */,
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   from_ptr(list({})),
                                   0,
                                   from_ptr(list({}))};
  EXPECT_EQ(aoti_torch_call_dispatcher("stc_test::echo", "", stack), AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("stc_test::echo"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 5 'd'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unsupported dtype code 12"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 6 'l'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 7 'm'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 8 'dev'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 13 'tl'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected Tensor (a tensor handle)"), std::string::npos) << msg;
  // Every argument was released (the fixture checks the handle counts).
}

TEST_F(StableIValueCodecTest, GeneratorSlotMustHoldAGeneratorHandle) {
  StableIValue* g = new StableIValue(0);
  StableIValue stack[1] = {from_ptr(g)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::gen", "", stack),
                   "aoti_torch_call_dispatcher",
                   "expected Generator (an AtenGeneratorHandle) but got a null pointer");
  StableIValue none[1] = {0};
  EXPECT_C_OK(aoti_torch_call_dispatcher("stc_test::gen", "", none));
}
