// The CUDA backend as a module loaded on first use (core/src/device/
// backend_module.cpp, Note [Backend modules]): a process maps no CUDA
// library until it asks for CUDA; each kind of first request loads the
// module; a plugin's CUDA kernel registered before the module loaded still
// overrides the module's; concurrent first requests load it once; and a
// core whose module is missing says why instead of crashing.
//
// Each request runs in a fresh process (a death test in the "threadsafe"
// style re-executes this binary), so the parent never loads the backend
// and the tests do not depend on their order.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/error.h>
#include <st/core/tensor.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/accelerator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>
#include <st/generated/functions.h>

namespace {

using st::Device;
using st::DeviceType;

// Whether a file whose path contains `name` is mapped into this process.
bool mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find(name) != std::string::npos) return true;
  }
  return false;
}

bool any_cuda_library_mapped() {
  return mapped("libcudart") || mapped("libcublas") || mapped("libstabletorch_cuda");
}

// The directory of the libstabletorch_core this process loaded.
std::string core_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&st::device_count), &info) == 0 ||
      info.dli_fname == nullptr) {
    return std::string();
  }
  return std::filesystem::path(info.dli_fname).parent_path().string();
}

bool module_beside_core() {
  return std::filesystem::exists(core_directory() + "/libstabletorch_cuda.so");
}

[[noreturn]] void finish(bool ok, const char* what) {
  std::fprintf(stderr, "%s: %s\n", ok ? "ok" : "FAILED", what);
  std::fflush(stderr);
  std::_Exit(ok ? 0 : 1);
}

// In the child process: nothing of CUDA is mapped, `request` runs (an error
// such as "no cuda device is available" is an answer, not a failure), and
// then the module and the CUDA runtime are mapped.
[[noreturn]] void expect_request_loads_backend(const std::function<void()>& request) {
  if (st::cuda::backend_loaded() || any_cuda_library_mapped()) {
    finish(false, "a CUDA library was mapped before the request");
  }
  try {
    request();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "the request threw: %s\n", e.what());
  }
  if (!st::cuda::backend_loaded()) finish(false, "the backend is not loaded after the request");
  if (!mapped("libstabletorch_cuda")) finish(false, "libstabletorch_cuda is not mapped");
  if (!mapped("libcudart")) finish(false, "libcudart is not mapped");
  finish(true, "the request loaded the backend");
}

#define EXPECT_LOADS_BACKEND(...)                                                               \
  EXPECT_EXIT(expect_request_loads_backend([&] { __VA_ARGS__; }), ::testing::ExitedWithCode(0), \
              "ok: the request loaded the backend")

class BackendModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    if (!module_beside_core()) {
      GTEST_SKIP() << "no libstabletorch_cuda.so beside the core in " << core_directory()
                   << " (test_core_backend_module.without_module runs against such a core)";
    }
  }
};

st::Tensor plugin_zero_(const st::Tensor& self) { return self; }
st::Tensor plugin_other_op(const st::Tensor& self) { return self; }

TEST_F(BackendModuleTest, CpuWorkMapsNoCudaLibrary) {
  st::Tensor a = st::ones({2, 3});
  st::Tensor b = st::add(a, a);
  EXPECT_EQ(st::device_count(DeviceType::CPU), 1);
  EXPECT_EQ(b.device(), Device("cpu"));
  EXPECT_FALSE(st::cuda::backend_loaded());
  EXPECT_FALSE(any_cuda_library_mapped()) << "a CPU-only process mapped a CUDA library";
}

TEST_F(BackendModuleTest, EachKindOfFirstRequestLoadsTheBackend) {
  EXPECT_LOADS_BACKEND(st::device_count(DeviceType::CUDA));
  EXPECT_LOADS_BACKEND(st::current_accelerator());
  EXPECT_LOADS_BACKEND(st::empty({2}, std::nullopt, std::nullopt, Device("cuda")));
  EXPECT_LOADS_BACKEND(st::DeviceGuard guard(Device("cuda:0")));
  EXPECT_LOADS_BACKEND(st::current_stream(Device("cuda")));
  EXPECT_LOADS_BACKEND(st::try_get_allocator(DeviceType::CUDA));
  EXPECT_LOADS_BACKEND(st::cuda::check_message(2, "file.cu", "fn", 7, false));
  EXPECT_LOADS_BACKEND(st::cuda::load_backend());
  EXPECT_LOADS_BACKEND({
    st::Library lib(st::Library::FRAGMENT, "backend_module_test", std::nullopt, __FILE__, __LINE__);
    lib.def("op(Tensor self) -> Tensor");
    lib.impl("op", st::dispatch(st::DispatchKey::CUDA, ST_FN(plugin_other_op)));
  });
}

[[noreturn]] void cuda_answers_after_loading() {
  const st::DeviceIndex n = st::device_count(DeviceType::CUDA);
  if (st::try_get_device_runtime(DeviceType::CUDA) == nullptr) finish(false, "no runtime");
  if (st::try_get_allocator(DeviceType::CUDA) != &st::cuda::caching_allocator()) {
    finish(false, "the CUDA allocator is not the module's");
  }
  if (n == 0) {
    // No GPU (or no driver): a clear error, no crash.
    try {
      st::empty({2}, std::nullopt, std::nullopt, Device("cuda"));
      finish(false, "a CUDA tensor was made without a device");
    } catch (const st::Error& e) {
      if (std::string(e.what()).find("no cuda device is available") == std::string::npos) {
        finish(false, e.what());
      }
    }
  }
  finish(true, "CUDA answers");
}

TEST_F(BackendModuleTest, AfterLoadingCudaAnswersOnThisMachine) {
  EXPECT_EXIT(cuda_answers_after_loading(), ::testing::ExitedWithCode(0), "ok: CUDA answers");
}

[[noreturn]] void plugin_kernel_stays_on_top() {
  // What a plugin does: its registration loads the backend first, so
  // the backend's kernel is below the plugin's, as if built in.
  st::Library lib(st::Library::IMPL, "aten", st::DispatchKey::CUDA, __FILE__, __LINE__);
  lib.impl("zero_", ST_FN(plugin_zero_));
  st::Dispatcher& d = st::Dispatcher::singleton();
  const std::string state = d.dumpState(d.findSchemaOrThrow("aten::zero_", ""));
  const size_t mine = state.find("\nCUDA: ");
  const size_t overridden = state.find("(overridden) CUDA: ");
  if (mine == std::string::npos || overridden == std::string::npos) finish(false, "dump");
  const std::string top = state.substr(mine, state.find('\n', mine + 1) - mine);
  if (top.find("test_backend_module.cpp") == std::string::npos) finish(false, top.c_str());
  finish(true, "the plugin's kernel is on top");
}

TEST_F(BackendModuleTest, APluginKernelRegisteredBeforeLoadingStillOverridesTheBackends) {
  EXPECT_EXIT(plugin_kernel_stays_on_top(), ::testing::ExitedWithCode(0),
              "ok: the plugin's kernel is on top");
}

[[noreturn]] void concurrent_first_requests() {
  std::atomic<bool> go{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      try {
        if (i % 3 == 0) {
          st::device_count(DeviceType::CUDA);
        } else if (i % 3 == 1) {
          st::cuda::load_backend();
        } else if (st::try_get_allocator(DeviceType::CUDA) == nullptr) {
          failures.fetch_add(1);
        }
      } catch (...) {
        failures.fetch_add(1);
      }
    });
  }
  go.store(true);
  for (std::thread& t : threads) t.join();
  if (failures.load() != 0) finish(false, "a request failed");
  // One registration of the module's kernel, not one per thread.
  st::Dispatcher& d = st::Dispatcher::singleton();
  const std::string state = d.dumpState(d.findSchemaOrThrow("aten::zero_", ""));
  if (state.find("(overridden) CUDA") != std::string::npos) finish(false, state.c_str());
  finish(st::cuda::backend_loaded() && mapped("libstabletorch_cuda"), "loaded once");
}

TEST_F(BackendModuleTest, ConcurrentFirstRequestsLoadItOnce) {
  EXPECT_EXIT(concurrent_first_requests(), ::testing::ExitedWithCode(0), "ok: loaded once");
}

// Run by the ctest entry test_core_backend_module.without_module against a
// copy of the core in a directory without the module (LD_LIBRARY_PATH).
TEST(BackendModuleMissingTest, CudaIsUnavailableWithAClearError) {
  if (module_beside_core()) {
    GTEST_SKIP() << "the module is beside the core (see test_core_backend_module.without_module)";
  }
  const char* kWhy = "CUDA is not available: cannot load its backend module";
  EXPECT_EQ(st::device_count(DeviceType::CUDA), 0);
  EXPECT_FALSE(st::current_accelerator().has_value());
  EXPECT_EQ(st::try_get_device_runtime(DeviceType::CUDA), nullptr);
  EXPECT_FALSE(st::cuda::backend_loaded());
  const std::vector<std::pair<const char*, std::function<void()>>> requests = {
      {"load_backend", [] { st::cuda::load_backend(); }},
      {"caching_allocator", [] { st::cuda::caching_allocator(); }},
      {"get_device_runtime", [] { st::get_device_runtime(DeviceType::CUDA); }},
      {"get_allocator", [] { st::get_allocator(DeviceType::CUDA); }},
      {"empty", [] { st::empty({2}, std::nullopt, std::nullopt, Device("cuda")); }},
      {"DeviceGuard", [] { st::DeviceGuard guard(Device("cuda:0")); }},
  };
  for (const auto& [name, request] : requests) {
    try {
      request();
      ADD_FAILURE() << name << " succeeded without the CUDA backend";
    } catch (const st::Error& e) {
      EXPECT_NE(std::string(e.what()).find(kWhy), std::string::npos) << name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("libstabletorch_cuda.so"), std::string::npos)
          << name << ": " << e.what();
    }
  }
  // CPU work and registrations for the CUDA key go on.
  st::Library lib(st::Library::FRAGMENT, "backend_module_missing", std::nullopt, __FILE__,
                  __LINE__);
  lib.def("op(Tensor self) -> Tensor");
  lib.impl("op", st::dispatch(st::DispatchKey::CUDA, ST_FN(plugin_other_op)));
  EXPECT_EQ(st::add(st::ones({2}), st::ones({2})).device(), Device("cpu"));
}

}  // namespace
