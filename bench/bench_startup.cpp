// Start-up of an empty program (main returns 0) linked to the core, next to
// the same program linked to PyTorch's libtorch_cpu.so and to nothing. Each
// host is spawned --runs times, interleaved so that load on the machine
// hits all alike; wait4's rusage gives each run's CPU time (user + system)
// and peak resident set, a steady clock its wall time. Prints the medians
// and our ratio to PyTorch's.
//
//   bench_startup [--runs N]       default 20
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Host {
  const char* label;
  const char* path;  // empty: not built
  std::vector<double> wall_ms, cpu_ms, rss_mib;
};

double ms(const timeval& tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; }

bool run_once(Host& h) {
  char* const argv[] = {const_cast<char*>(h.path), nullptr};
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, h.path, nullptr, nullptr, argv, environ) != 0) {
    std::fprintf(stderr, "bench_startup: cannot spawn %s\n", h.path);
    return false;
  }
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_startup: %s did not exit with 0\n", h.path);
    return false;
  }
  const auto end = std::chrono::steady_clock::now();
  h.wall_ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  h.cpu_ms.push_back(ms(ru.ru_utime) + ms(ru.ru_stime));
  h.rss_mib.push_back(static_cast<double>(ru.ru_maxrss) / 1024.0);  // ru_maxrss is in KiB
  return true;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 20;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--runs N]\n", argv[0]);
      return 2;
    }
  }
  if (runs < 1) {
    std::fprintf(stderr, "bench_startup: --runs must be at least 1\n");
    return 2;
  }
  std::vector<Host> hosts = {
      {"linked to nothing (reference)", BENCH_TRIVIAL_HOST, {}, {}, {}},
      {"linked to libstabletorch_core", BENCH_EMPTY_CORE_HOST, {}, {}, {}},
      {"linked to PyTorch's libtorch_cpu", BENCH_EMPTY_PYTORCH_HOST, {}, {}, {}},
  };
  for (Host& h : hosts) {  // one warm-up run each: the page cache, not the loader, is cold
    if (h.path[0] != '\0' && !run_once(h)) return 1;
    h.wall_ms.clear();
    h.cpu_ms.clear();
    h.rss_mib.clear();
  }
  for (int r = 0; r < runs; ++r) {
    for (Host& h : hosts) {
      if (h.path[0] != '\0' && !run_once(h)) return 1;
    }
  }
  std::printf("start-up of an empty program: median of %d runs each, interleaved\n", runs);
  std::printf("%-36s %9s %9s %13s\n", "", "wall ms", "cpu ms", "peak RSS MiB");
  for (const Host& h : hosts) {
    if (h.path[0] == '\0') {
      std::printf("%-36s not built (PyTorch's library not found: tools/fetch_pytorch.sh)\n",
                  h.label);
      continue;
    }
    std::printf("%-36s %9.1f %9.1f %13.1f\n", h.label, median(h.wall_ms), median(h.cpu_ms),
                median(h.rss_mib));
  }
  const Host& ours = hosts[1];
  const Host& torch = hosts[2];
  if (torch.path[0] != '\0') {
    std::printf("%-36s %9.2f %9.2f %13.2f\n", "stabletorch / PyTorch",
                median(ours.wall_ms) / median(torch.wall_ms),
                median(ours.cpu_ms) / median(torch.cpu_ms),
                median(ours.rss_mib) / median(torch.rss_mib));
  }
  return 0;
}
