// st::load_library / st::Plugin (stabletorch/load_library.h): the RAII face
// of the loader over real plugins.
#include <stabletorch/load_library.h>
#include <torch/csrc/stable/c/shim.h>

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

// ns::add_one(int x) -> int through the C ABI.
AOTITorchError add_one(const char* op, int64_t x, int64_t* result) {
  StableIValue stack[1];
  std::memcpy(&stack[0], &x, sizeof x);
  const AOTITorchError err = aoti_torch_call_dispatcher(op, "", stack);
  if (err == AOTI_TORCH_SUCCESS) std::memcpy(result, &stack[0], sizeof *result);
  return err;
}

TEST(LoadLibraryTest, LoadsReportsAndUnloadsWhenDestroyed) {
  int64_t r = 0;
  {
    st::Plugin p = st::load_library(COUNTER_PLUGIN);
    ASSERT_TRUE(p.loaded());
    EXPECT_EQ(p.ops_defined(), 2);
    EXPECT_EQ(p.kernels_registered(), 2);
    EXPECT_NE(p.report().find("counter_a::add_one"), std::string::npos) << p.report();
    ASSERT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_SUCCESS);
    EXPECT_EQ(r, 2);
    // Moving transfers the reference.
    st::Plugin q = std::move(p);
    EXPECT_FALSE(p.loaded());
    EXPECT_TRUE(q.loaded());
    EXPECT_THROW((void)p.report(), std::runtime_error);
  }
  // Destroyed: unloaded.
  EXPECT_EQ(add_one("counter_a::add_one", 1, &r), AOTI_TORCH_FAILURE);
}

TEST(LoadLibraryTest, ExplicitUnloadAndRefusals) {
  st::Plugin p = st::load_library(COUNTER_PLUGIN);
  p.unload();
  EXPECT_FALSE(p.loaded());
  p.unload();  // a no-op once unloaded
  try {
    (void)st::load_library("/nonexistent/libnothing.so");
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/libnothing.so"), std::string::npos)
        << e.what();
  }
}

}  // namespace
