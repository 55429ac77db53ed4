// AtenGeneratorHandle functions (torch_* of 2.13 and the stabletorch_*
// seeding additions), and generators passed to random operators through
// the dispatcher.
#include <cstring>

#include "c_api_test_util.h"

using namespace stc_test;

namespace {

class GeneratorsTest : public CApiTest {};

AtenGeneratorHandle new_cpu_generator(uint64_t seed) {
  AtenGeneratorHandle g = nullptr;
  EXPECT_C_OK(stabletorch_new_generator(aoti_torch_device_type_cpu(), seed, &g));
  return g;
}

StableIValue bits(const void* p) {
  return static_cast<StableIValue>(reinterpret_cast<uintptr_t>(p));
}

// aten::rand.generator(size=[n], generator=g) through the dispatcher; the
// stack steals a new reference to g (none for a null g).
std::vector<float> rand_through_dispatcher(int64_t n, AtenGeneratorHandle g) {
  StableListHandle size = nullptr;
  EXPECT_C_OK(torch_new_list_reserve_size(1, &size));
  EXPECT_C_OK(torch_list_push_back(size, static_cast<StableIValue>(n)));
  StableIValue stack[6] = {bits(size), 0, 0, 0, 0, 0};
  if (g != nullptr) {
    AtenGeneratorHandle passed = nullptr;
    EXPECT_C_OK(torch_new_generator_handle(g, &passed));
    stack[1] = bits(new StableIValue(bits(passed)));
  }
  EXPECT_C_OK(aoti_torch_call_dispatcher("aten::rand", "generator", stack));
  AtenTensorHandle t = nullptr;
  std::memcpy(&t, &stack[0], sizeof t);
  std::vector<float> out = read_floats(t);
  EXPECT_C_OK(aoti_torch_delete_tensor_object(t));
  return out;
}

TEST_F(GeneratorsTest, HandlesShareOneGenerator) {
  AtenGeneratorHandle g = new_cpu_generator(5);
  AtenGeneratorHandle copy = nullptr;
  ASSERT_C_OK(torch_new_generator_handle(g, &copy));
  ASSERT_NE(copy, g);
  int32_t type = -7, index = -7;
  ASSERT_C_OK(torch_generator_get_device(copy, &type, &index));
  EXPECT_EQ(type, aoti_torch_device_type_cpu());
  EXPECT_EQ(index, -1);
  ASSERT_C_OK(stabletorch_generator_manual_seed(copy, 1234));
  uint64_t seed = 0;
  ASSERT_C_OK(stabletorch_generator_initial_seed(g, &seed));
  EXPECT_EQ(seed, 1234u);  // seeding one handle seeds the generator
  ASSERT_C_OK(torch_delete_generator(g));
  ASSERT_C_OK(stabletorch_generator_initial_seed(copy, &seed));  // still alive
  EXPECT_EQ(seed, 1234u);
  ASSERT_C_OK(stabletorch_generator_seed(copy, &seed));
  uint64_t now = 0;
  ASSERT_C_OK(stabletorch_generator_initial_seed(copy, &now));
  EXPECT_EQ(now, seed);
  ASSERT_C_OK(torch_delete_generator(copy));
  EXPECT_C_OK(torch_delete_generator(nullptr));
}

TEST_F(GeneratorsTest, SameSeedSameNumbersThroughDispatcher) {
  AtenGeneratorHandle a = new_cpu_generator(42);
  AtenGeneratorHandle b = new_cpu_generator(42);
  const std::vector<float> ra = rand_through_dispatcher(16, a);
  EXPECT_EQ(rand_through_dispatcher(16, b), ra);
  // Independent: a moved on, b did too, a fresh one with another seed differs.
  AtenGeneratorHandle c = new_cpu_generator(43);
  EXPECT_NE(rand_through_dispatcher(16, c), ra);
  EXPECT_NE(rand_through_dispatcher(16, a), ra);
  ASSERT_C_OK(torch_delete_generator(a));
  ASSERT_C_OK(torch_delete_generator(b));
  ASSERT_C_OK(torch_delete_generator(c));
}

TEST_F(GeneratorsTest, DefaultGeneratorWhenNoneIsPassed) {
  AtenGeneratorHandle d = nullptr;
  ASSERT_C_OK(stabletorch_default_generator(aoti_torch_device_type_cpu(), &d));
  ASSERT_C_OK(stabletorch_generator_manual_seed(d, 99));
  const std::vector<float> implicit = rand_through_dispatcher(8, nullptr);
  ASSERT_C_OK(stabletorch_generator_manual_seed(d, 99));
  EXPECT_EQ(rand_through_dispatcher(8, d), implicit);
  ASSERT_C_OK(torch_delete_generator(d));
}

TEST_F(GeneratorsTest, BadHandlesFailClearly) {
  AtenGeneratorHandle out = nullptr;
  int32_t type = 0, index = 0;
  EXPECT_C_FAILURE(torch_new_generator_handle(nullptr, &out), "torch_new_generator_handle",
                   "null generator handle");
  AtenGeneratorHandle g = new_cpu_generator(1);
  EXPECT_C_FAILURE(torch_new_generator_handle(g, nullptr), "torch_new_generator_handle",
                   "null output");
  EXPECT_C_FAILURE(torch_generator_get_device(g, nullptr, &index), "torch_generator_get_device",
                   "null output");
  ASSERT_C_OK(torch_delete_generator(g));
  EXPECT_C_FAILURE(torch_generator_get_device(g, &type, &index), "torch_generator_get_device",
                   "already deleted");
  EXPECT_C_FAILURE(torch_delete_generator(g), "torch_delete_generator", "already deleted");
  // A tensor handle is not a generator handle.
  AtenTensorHandle t = make_tensor({2});
  AtenGeneratorHandle as_gen = nullptr;
  std::memcpy(&as_gen, &t, sizeof t);
  EXPECT_C_FAILURE(torch_delete_generator(as_gen), "torch_delete_generator",
                   "expected a generator handle but got a tensor handle");
  ASSERT_C_OK(aoti_torch_delete_tensor_object(t));
  int local = 0;
  AtenGeneratorHandle foreign = nullptr;
  void* p = &local;
  std::memcpy(&foreign, &p, sizeof p);
  EXPECT_C_FAILURE(torch_generator_get_device(foreign, &type, &index), "torch_generator_get_device",
                   "foreign");
  EXPECT_C_FAILURE(stabletorch_new_generator(aoti_torch_device_type_cuda(), 0, &out),
                   "stabletorch_new_generator", "only CPU generators exist");
  EXPECT_C_FAILURE(stabletorch_default_generator(12345, &out), "stabletorch_default_generator",
                   "device_type");
}

TEST_F(GeneratorsTest, WrongPayloadForGeneratorArgument) {
  // A tensor handle where the generator belongs: the call fails naming the
  // type, and every argument is still released.
  StableListHandle size = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(1, &size));
  ASSERT_C_OK(torch_list_push_back(size, 3));
  AtenTensorHandle t = make_tensor({2});
  StableIValue stack[6] = {bits(size), bits(new StableIValue(bits(t))), 0, 0, 0, 0};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::rand", "generator", stack),
                   "aoti_torch_call_dispatcher", "expected Generator");
}

}  // namespace
