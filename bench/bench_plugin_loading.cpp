// Loading extensions (stabletorch/c/loader.h): load + register + unload of
// a plugin with 10 and with 1,000 operators (each a def and a TORCH_BOX'd
// kernel), and the start-up of a process that loads the core. References
// measured in the same run: plain dlopen + dlclose of an empty shared
// object, and the start-up of a trivial process.
#include <stabletorch/c/loader.h>
#include <torch/csrc/stable/c/shim.h>

#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <stdexcept>
#include <string>

extern "C" const char* torch_exception_get_what_without_backtrace(void);
extern char** environ;

namespace {

void load_register_unload(benchmark::State& state, const char* path) {
  for (auto _ : state) {
    StableTorchPluginHandle plugin = nullptr;
    if (stabletorch_load_library(path, &plugin) != AOTI_TORCH_SUCCESS) {
      state.SkipWithError(torch_exception_get_what_without_backtrace());
      return;
    }
    if (stabletorch_unload_library(plugin) != AOTI_TORCH_SUCCESS) {
      state.SkipWithError(torch_exception_get_what_without_backtrace());
      return;
    }
  }
}

void BM_LoadRegisterUnload_10Ops(benchmark::State& state) {
  load_register_unload(state, BENCH_PLUGIN_10);
}
void BM_LoadRegisterUnload_1000Ops(benchmark::State& state) {
  load_register_unload(state, BENCH_PLUGIN_1000);
}

// The loader on a plugin without operators (no descriptor: judged by its
// imports), next to the reference below: what the loader adds to dlopen.
void BM_LoadUnload_EmptyPlugin(benchmark::State& state) {
  load_register_unload(state, BENCH_EMPTY_PLUGIN);
}

// Reference: the dynamic loader alone on an empty shared object.
void BM_Reference_DlopenDlcloseEmpty(benchmark::State& state) {
  for (auto _ : state) {
    void* h = dlopen(BENCH_EMPTY_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      state.SkipWithError(dlerror());
      return;
    }
    dlclose(h);
  }
}

void spawn_and_wait(benchmark::State& state, const char* path) {
  for (auto _ : state) {
    pid_t pid = 0;
    char* const argv[] = {const_cast<char*>(path), nullptr};
    if (posix_spawn(&pid, path, nullptr, nullptr, argv, environ) != 0) {
      state.SkipWithError("posix_spawn failed");
      return;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError((std::string(path) + " failed").c_str());
      return;
    }
  }
}

// A host that loads the core (every aten operator registered) and calls one.
void BM_ProcessStartup_CoreHost(benchmark::State& state) { spawn_and_wait(state, BENCH_CORE_HOST); }
// Reference: a process that links nothing of stabletorch.
void BM_Reference_ProcessStartup_Trivial(benchmark::State& state) {
  spawn_and_wait(state, BENCH_TRIVIAL_HOST);
}

}  // namespace

BENCHMARK(BM_LoadUnload_EmptyPlugin)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Reference_DlopenDlcloseEmpty)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadRegisterUnload_10Ops)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadRegisterUnload_1000Ops)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Reference_ProcessStartup_Trivial)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProcessStartup_CoreHost)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
