// The plugin registry (c_api/src/loader/plugin_registry.cpp) through the
// loader's C functions: the note left for an unloaded plugin's operators
// names the plugin that defined them last, and goes away once another
// plugin defines them again; handles of unloaded plugins stay recognised
// (records are never freed) through later loads of the same file; the
// counts follow the references a second load adds. (Loading, calling,
// refusals and leaks over many cycles are in tests/extensions/
// test_loader.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include <stabletorch/c/loader.h>
#include <torch/csrc/stable/c/shim.h>

extern "C" const char* torch_exception_get_what_without_backtrace(void);

namespace {

std::string last_error() { return torch_exception_get_what_without_backtrace(); }

AOTITorchError add_one(int64_t x, int64_t* result) {
  StableIValue stack[1];
  std::memcpy(&stack[0], &x, sizeof(x));
  const AOTITorchError err = aoti_torch_call_dispatcher("counter_a::add_one", "", stack);
  if (err == AOTI_TORCH_SUCCESS) std::memcpy(result, &stack[0], sizeof(*result));
  return err;
}

std::string file_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

TEST(PluginRegistry, UnloadedOperatorNoteNamesTheLastDefinerAndClearsOnRedefinition) {
  StableTorchPluginHandle a = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS) << last_error();
  int64_t r = 0;
  ASSERT_EQ(add_one(1, &r), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("operator counter_a::add_one has no kernel (its library was "
                              "unloaded: "),
            std::string::npos)
      << last_error();
  EXPECT_NE(last_error().find(file_name(COUNTER_PLUGIN)), std::string::npos) << last_error();

  // Another plugin defining the same namespace: the operator is callable
  // again, so the note is gone.
  StableTorchPluginHandle b = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_DUP_PLUGIN, &b), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(add_one(41, &r), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(r, 42);
  ASSERT_EQ(stabletorch_unload_library(b), AOTI_TORCH_SUCCESS) << last_error();

  // Now the note names the second plugin, not the first.
  ASSERT_EQ(add_one(1, &r), AOTI_TORCH_FAILURE);
  const std::string e = last_error();
  EXPECT_NE(e.find("its library was unloaded"), std::string::npos) << e;
  EXPECT_NE(e.find(file_name(COUNTER_DUP_PLUGIN)), std::string::npos) << e;
  EXPECT_EQ(e.find(file_name(COUNTER_PLUGIN) + ")"), std::string::npos) << e;
}

TEST(PluginRegistry, StaleHandlesStayRecognisedAcrossReloads) {
  StableTorchPluginHandle first = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &first), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_unload_library(first), AOTI_TORCH_SUCCESS) << last_error();
  StableTorchPluginHandle second = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &second), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_NE(second, first) << "a reload is a new plugin record";

  // The old handle is refused by every function, naming the file, and the
  // refusal leaves the reloaded plugin alone.
  EXPECT_EQ(stabletorch_unload_library(first), AOTI_TORCH_FAILURE);
  EXPECT_EQ(last_error().rfind("stabletorch_unload_library: ", 0), 0u) << last_error();
  EXPECT_NE(last_error().find("plugin handle of '"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find(file_name(COUNTER_PLUGIN) + "' was already unloaded"),
            std::string::npos)
      << last_error();
  const char* report = nullptr;
  EXPECT_EQ(stabletorch_plugin_report(first, &report), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("already unloaded"), std::string::npos) << last_error();
  int64_t ops = -1, kernels = -1;
  EXPECT_EQ(stabletorch_plugin_counts(first, &ops, &kernels), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("already unloaded"), std::string::npos) << last_error();

  int64_t r = 0;
  ASSERT_EQ(add_one(1, &r), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(r, 2);
  ASSERT_EQ(stabletorch_plugin_counts(second, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(kernels, 2);
  ASSERT_EQ(stabletorch_unload_library(second), AOTI_TORCH_SUCCESS) << last_error();
}

TEST(PluginRegistry, ASecondReferenceKeepsReportAndCountsUntilTheLastUnload) {
  StableTorchPluginHandle a = nullptr, b = nullptr;
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &a), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(stabletorch_load_library(COUNTER_PLUGIN, &b), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_EQ(a, b);
  // The second load registers nothing more.
  int64_t ops = 0, kernels = 0;
  ASSERT_EQ(stabletorch_plugin_counts(a, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(kernels, 2);
  ASSERT_EQ(stabletorch_unload_library(a), AOTI_TORCH_SUCCESS) << last_error();
  // One reference left: the handle is still valid, its report intact.
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(b, &report), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_NE(std::string(report).find("counter_a::add_one"), std::string::npos) << report;
  ASSERT_EQ(stabletorch_plugin_counts(b, &ops, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(ops, 2);
  ASSERT_EQ(stabletorch_unload_library(b), AOTI_TORCH_SUCCESS) << last_error();
  EXPECT_EQ(stabletorch_plugin_counts(b, &ops, &kernels), AOTI_TORCH_FAILURE);
}

}  // namespace
