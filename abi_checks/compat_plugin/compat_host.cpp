// Loads a compatibility plugin into the current core and runs its
// operators through aoti_torch_call_dispatcher, checking every result.
//
//   abi_compat_host [--loader] <libabi_compat_*.so>
//
// Default: plain dlopen/dlclose, as a host application embedding the core
// would. --loader: through stabletorch_load_library/unload_library.
// Exit status 0 when every operator ran and returned what it must and the
// plugin's own expectations all held; 1 otherwise, naming each failure.
#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

int g_failures = 0;

void fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  ++g_failures;
}

StableIValue from_handle(const void* h) {
  StableIValue v = 0;
  std::memcpy(&v, &h, sizeof(h));
  return v;
}
AtenTensorHandle to_tensor(StableIValue v) {
  AtenTensorHandle h;
  std::memcpy(&h, &v, sizeof(h));
  return h;
}
StableIValue from_int(int64_t i) {
  StableIValue v = 0;
  std::memcpy(&v, &i, sizeof(i));
  return v;
}
int64_t to_int(StableIValue v) {
  int64_t i;
  std::memcpy(&i, &v, sizeof(i));
  return i;
}
StableIValue from_double(double d) {
  StableIValue v = 0;
  std::memcpy(&v, &d, sizeof(d));
  return v;
}

// A 2x3 float32 CPU tensor holding base, base+1, ..., base+5.
AtenTensorHandle make_input(float base) {
  const int64_t sizes[2] = {2, 3};
  const int64_t strides[2] = {3, 1};
  AtenTensorHandle t = nullptr;
  if (aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(),
                               aoti_torch_device_type_cpu(), 0, &t) != AOTI_TORCH_SUCCESS) {
    fail("aoti_torch_empty_strided failed in the host");
    return nullptr;
  }
  void* p = nullptr;
  aoti_torch_get_data_ptr(t, &p);
  for (int i = 0; i < 6; ++i) {
    static_cast<float*>(p)[i] = base + static_cast<float>(i);
  }
  return t;
}

AtenTensorHandle new_ref(AtenTensorHandle t) {
  AtenTensorHandle r = nullptr;
  aoti_torch_new_tensor_handle(t, &r);
  return r;
}

// The core's last error message (torch_exception_get_what is newer than
// the level these headers claim, so it is looked up, not declared).
std::string core_error() {
  using Getter = const char* (*)();
  auto getter = reinterpret_cast<Getter>(dlsym(RTLD_DEFAULT, "torch_exception_get_what"));
  const char* what = getter != nullptr ? getter() : nullptr;
  return what != nullptr && what[0] != '\0' ? std::string(": ") + what : std::string();
}

bool call(const char* op, StableIValue* stack) {
  if (aoti_torch_call_dispatcher(op, "", stack) != AOTI_TORCH_SUCCESS) {
    fail(std::string("aoti_torch_call_dispatcher(\"") + op + "\") failed" + core_error());
    return false;
  }
  return true;
}

// Checks a returned 2x3 float32 tensor against expected(i) and releases it.
template <typename F>
void expect_tensor(const char* op, StableIValue v, F expected) {
  AtenTensorHandle t = to_tensor(v);
  int64_t numel = 0;
  int32_t dtype = -1;
  void* p = nullptr;
  if (aoti_torch_get_numel(t, &numel) != AOTI_TORCH_SUCCESS || numel != 6 ||
      aoti_torch_get_dtype(t, &dtype) != AOTI_TORCH_SUCCESS ||
      dtype != aoti_torch_dtype_float32() || aoti_torch_get_data_ptr(t, &p) != AOTI_TORCH_SUCCESS ||
      p == nullptr) {
    fail(std::string(op) + " returned something other than a 6-element float32 tensor");
  } else {
    for (int i = 0; i < 6; ++i) {
      float got = static_cast<float*>(p)[i];
      if (got != expected(i)) {
        char buf[160];
        std::snprintf(buf, sizeof(buf), "%s: element %d is %g, expected %g", op, i,
                      static_cast<double>(got), static_cast<double>(expected(i)));
        fail(buf);
        break;
      }
    }
  }
  aoti_torch_delete_tensor_object(t);
}

void expect_int(const char* op, StableIValue v, int64_t expected) {
  if (to_int(v) != expected) {
    char buf[160];
    std::snprintf(buf, sizeof(buf), "%s returned %" PRId64 ", expected %" PRId64, op, to_int(v),
                  expected);
    fail(buf);
  }
}

void run_ops(uint64_t feature_level) {
  StableIValue stack[3];

  stack[0] = 0;
  if (call("abi_compat::constants", stack)) expect_int("abi_compat::constants", stack[0], 0);

  AtenTensorHandle x = make_input(0.0f);
  AtenTensorHandle y = make_input(10.0f);
  stack[0] = from_handle(new_ref(x));
  if (call("abi_compat::tensor_api", stack)) {
    expect_tensor("abi_compat::tensor_api", stack[0], [](int i) { return 2.0f * i + 1.0f; });
  }

  stack[0] = from_handle(new_ref(x));
  stack[1] = from_handle(new_ref(y));
  stack[2] = from_double(0.5);
  if (call("abi_compat::axpy", stack)) {
    expect_tensor("abi_compat::axpy", stack[0], [](int i) { return 0.5f * i + 10.0f + i; });
  }

  stack[0] = from_handle(new_ref(x));
  stack[1] = from_int(3);
  if (call("abi_compat::nested", stack)) {
    expect_tensor("abi_compat::nested", stack[0], [](int i) { return 4.0f * i; });
  }

  stack[0] = 0;
  if (call("abi_compat::runtime_api", stack)) expect_int("abi_compat::runtime_api", stack[0], 0);

  if (feature_level >= TORCH_VERSION_2_10_0) {
    StableListHandle xs = nullptr;
    StringHandle s = nullptr;
    torch_new_list_reserve_size(3, &xs);
    for (int64_t v : {1, 2, 3}) torch_list_push_back(xs, from_int(v));
    torch_new_string_handle("hello", 5, &s);
    stack[0] = from_handle(xs);
    stack[1] = from_handle(s);
    if (call("abi_compat::lists_and_strings", stack)) {
      expect_int("abi_compat::lists_and_strings", stack[0], 1 + 2 + 3 + 5);
    }
    stack[0] = from_handle(new_ref(x));
    if (call("abi_compat::threads", stack)) expect_int("abi_compat::threads", stack[0], 0);
  }
  if (feature_level >= TORCH_VERSION_2_11_0) {
    stack[0] = from_handle(new_ref(x));
    if (call("abi_compat::level_2_11", stack)) expect_int("abi_compat::level_2_11", stack[0], 0);
  }
  if (feature_level >= TORCH_VERSION_2_12_0) {
    stack[0] = 0;
    if (call("abi_compat::level_2_12", stack)) expect_int("abi_compat::level_2_12", stack[0], 0);
  }
  if (feature_level >= TORCH_VERSION_2_13_0) {
    stack[0] = 0;
    if (call("abi_compat::level_2_13", stack)) expect_int("abi_compat::level_2_13", stack[0], 0);
  }
  if (feature_level >= TORCH_VERSION_2_14_0) {
    stack[0] = from_handle(new_ref(x));
    if (call("abi_compat::level_2_14", stack)) expect_int("abi_compat::level_2_14", stack[0], 0);
  }
  aoti_torch_delete_tensor_object(x);
  aoti_torch_delete_tensor_object(y);
}

std::string level_text(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%u.%u.%u", static_cast<unsigned>((v >> 56) & 0xFF),
                static_cast<unsigned>((v >> 48) & 0xFF), static_cast<unsigned>((v >> 40) & 0xFF));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  bool use_loader = argc == 3 && std::strcmp(argv[1], "--loader") == 0;
  if (argc != 2 && !use_loader) {
    std::fprintf(stderr, "usage: %s [--loader] <compat plugin .so>\n", argv[0]);
    return 2;
  }
  const char* path = argv[argc - 1];

  int64_t live_before = 0;
  stabletorch_live_handle_count(&live_before);

  void* dl = nullptr;
  StableTorchPluginHandle plugin = nullptr;
  if (use_loader) {
    if (stabletorch_load_library(path, &plugin) != AOTI_TORCH_SUCCESS) {
      std::printf("FAILED: stabletorch_load_library(%s) refused the plugin%s\n", path,
                  core_error().c_str());
      return 1;
    }
    const char* report = nullptr;
    int64_t ops = 0, kernels = 0;
    if (stabletorch_plugin_report(plugin, &report) != AOTI_TORCH_SUCCESS || report == nullptr) {
      fail("stabletorch_plugin_report failed");
    } else {
      std::printf("load report:\n%s\n", report);
    }
    if (stabletorch_plugin_counts(plugin, &ops, &kernels) != AOTI_TORCH_SUCCESS) {
      fail("stabletorch_plugin_counts failed");
    }
  }
  // With the loader the plugin is already loaded; this dlopen only takes a
  // reference to look up the report functions.
  dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    std::printf("FAILED: dlopen(%s): %s\n", path, dlerror());
    return 1;
  }
  using Report = const char* (*)(int64_t*);
  using Level = uint64_t (*)(void);
  auto report = reinterpret_cast<Report>(dlsym(dl, "abi_compat_report"));
  auto feature = reinterpret_cast<Level>(dlsym(dl, "abi_compat_feature_level"));
  auto build = reinterpret_cast<Level>(dlsym(dl, "abi_compat_build_level"));
  if (report == nullptr || feature == nullptr || build == nullptr) {
    std::printf("FAILED: %s is not a compatibility plugin (abi_compat_* not exported)\n", path);
    return 1;
  }
  std::printf("plugin %s: headers level %s, target level %s; core level %s, stabletorch %s\n", path,
              level_text(build()).c_str(), level_text(feature()).c_str(),
              level_text(aoti_torch_abi_version()).c_str(), stabletorch_version_string());

  run_ops(feature());

  int64_t plugin_failures = 0;
  const char* log = report(&plugin_failures);
  if (plugin_failures != 0) {
    std::printf("FAILED: %" PRId64 " expectation(s) inside the plugin:\n%s", plugin_failures, log);
    ++g_failures;
  }

  dlclose(dl);
  if (use_loader) {
    if (stabletorch_unload_library(plugin) != AOTI_TORCH_SUCCESS) {
      fail("stabletorch_unload_library failed");
    }
  }
  // Unloading deregisters the plugin's operators.
  StableIValue stack[1] = {0};
  if (aoti_torch_call_dispatcher("abi_compat::constants", "", stack) == AOTI_TORCH_SUCCESS) {
    fail("abi_compat::constants is still callable after the plugin was unloaded");
  }
  int64_t live_after = 0;
  stabletorch_live_handle_count(&live_after);
  if (live_after != live_before) {
    char buf[128];
    std::snprintf(buf, sizeof(buf), "%" PRId64 " handle(s) leaked across the run",
                  live_after - live_before);
    fail(buf);
  }

  if (g_failures != 0) {
    std::printf("FAILED: %d problem(s) running %s on this core\n", g_failures, path);
    return 1;
  }
  std::printf("OK: every operator of %s ran on this core and returned what it must\n", path);
  return 0;
}
