// torch::stable::Generator (generator_struct.h, generator_inl.h) and its
// StableIValue conversions; a 2.13 class, so the tests exist from that
// level of the headers on.
#include <torch/csrc/stable/generator.h>

#include <stdexcept>

#include "stable_test_util.h"

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

namespace {

using namespace stable_test;
using torch::stable::Generator;
namespace detail = torch::stable::detail;

class GeneratorTest : public StableTest {};

Generator seeded(uint64_t seed) {
  AtenGeneratorHandle h = nullptr;
  if (stabletorch_new_generator(aoti_torch_device_type_cpu(), seed, &h) != AOTI_TORCH_SUCCESS) {
    throw std::runtime_error(last_error());
  }
  return Generator(h);
}

// aten::rand.generator(size=[n], generator=g): the stack gets a new
// reference through from(std::optional<Generator>).
std::vector<double> draw(const Generator& g, int64_t n) {
  return values(call_tensor("aten::rand", "generator",
                            {detail::from(std::vector<int64_t>{n}),
                             detail::from(std::optional<Generator>(g)), 0, 0, 0, 0}));
}

TEST_F(GeneratorTest, CopiesShareOneGenerator) {
  Generator a = seeded(21);
  Generator b = a;
  EXPECT_EQ(a.get(), b.get());  // one handle, shared
  Generator fresh = seeded(21);
  const std::vector<double> first = draw(a, 8);
  EXPECT_EQ(draw(fresh, 8), first);
  EXPECT_EQ(draw(b, 8), draw(fresh, 8));  // b continues where a stopped
}

TEST_F(GeneratorTest, DeviceIsTheCpu) {
  const torch::stable::Device d = seeded(1).device();
  EXPECT_TRUE(d.is_cpu());
  EXPECT_EQ(d.index(), -1);
}

TEST_F(GeneratorTest, ConversionsOwnTheirHandles) {
  Generator g = seeded(3);
  // from: a new reference (another handle to the same generator).
  const StableIValue v = detail::from(g);
  EXPECT_NE(detail::to<AtenGeneratorHandle>(v), g.get());
  // to: steals it; the Generator it makes deletes it.
  Generator back = detail::to<Generator>(v);
  EXPECT_EQ(back.get(), detail::to<AtenGeneratorHandle>(v));
  EXPECT_EQ(draw(back, 4), draw(seeded(3), 4));
}

TEST_F(GeneratorTest, BadHandleFailsClearly) {
  AtenGeneratorHandle h = nullptr;
  ASSERT_EQ(stabletorch_new_generator(aoti_torch_device_type_cpu(), 0, &h), AOTI_TORCH_SUCCESS);
  ASSERT_EQ(torch_delete_generator(h), AOTI_TORCH_SUCCESS);
  AtenGeneratorHandle stale = h;
  // A Generator over a deleted handle reports it on use; its deleter
  // ignores the second delete instead of throwing.
  Generator g(stale);
  try {
    (void)g.device();
    ADD_FAILURE() << "device() of a deleted generator succeeded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("already deleted"), std::string::npos) << e.what();
  }
}

}  // namespace

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
