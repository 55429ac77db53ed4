// Dispatcher benchmarks: a typed and a boxed call of a one-tensor no-op
// operator next to a direct C++ call of the same function (same run),
// registering 1,000 operators (def + impl), and lookup with 10 vs 10,000
// registered operators.
//
// Instructions per call: run `bench_dispatcher --instructions` under
//   valgrind --tool=callgrind --toggle-collect='*measure_*' ./bench_dispatcher --instructions
// Each measure_* function makes kCallgrindCalls calls; divide its inclusive
// count by kCallgrindCalls. measure_register registers the 1,000 operators of
// BM_Register1000Ops once (after one untimed round, as in the steady state
// of that benchmark): its count / 1,000 is instructions per def + impl.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <st/core/device.h>
#include <st/core/empty_tensor.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>

namespace {

using st::Tensor;

__attribute__((noinline)) Tensor noop(const Tensor& self) { return self; }

// Calling through a pointer the optimiser cannot see through keeps the
// direct call a real call, like the kernel call behind the dispatcher.
Tensor (*volatile g_noop)(const Tensor&) = &noop;

st::Library& benchLibrary() {
  static st::Library lib = [] {
    st::Library l(st::Library::DEF, "bench", std::nullopt, __FILE__, __LINE__);
    l.def("noop(Tensor self) -> Tensor");
    return l;
  }();
  static st::Library impl = [] {
    st::Library l(st::Library::IMPL, "bench", st::DispatchKey::CPU, __FILE__, __LINE__);
    l.impl("noop", ST_FN(noop));
    return l;
  }();
  return lib;
}

st::TypedOperatorHandle<Tensor(const Tensor&)> typedNoop() {
  benchLibrary();
  return st::Dispatcher::singleton()
      .findSchemaOrThrow("bench::noop", "")
      .typed<Tensor(const Tensor&)>();
}

Tensor cpuTensor() {
  return st::detail::empty_generic({2, 2}, st::ScalarType::Float, st::Device(st::DeviceType::CPU));
}

void BM_DirectCall(benchmark::State& state) {
  Tensor t = cpuTensor();
  auto fn = g_noop;
  for (auto _ : state) {
    Tensor r = fn(t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_DirectCall);

void BM_TypedCall(benchmark::State& state) {
  auto op = typedNoop();
  Tensor t = cpuTensor();
  for (auto _ : state) {
    Tensor r = op.call(t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TypedCall);

void BM_BoxedCall(benchmark::State& state) {
  auto op = typedNoop();
  Tensor t = cpuTensor();
  st::Stack stack;
  stack.reserve(4);
  for (auto _ : state) {
    stack.clear();
    stack.emplace_back(t);
    op.callBoxed(&stack);
    benchmark::DoNotOptimize(stack.data());
  }
}
BENCHMARK(BM_BoxedCall);

std::vector<std::string> schemas(const char* ns, int n) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    out.push_back(std::string(ns) + "::op" + std::to_string(i) +
                  ".Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  }
  return out;
}

Tensor noop2(const Tensor& a, const Tensor&, const st::Scalar&) { return a; }

void BM_Register1000Ops(benchmark::State& state) {
  const std::vector<std::string> defs = schemas("reg", 1000);
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) names.push_back("op" + std::to_string(i) + ".Tensor");
  for (auto _ : state) {
    auto def = std::make_unique<st::Library>(st::Library::FRAGMENT, "reg", std::nullopt, __FILE__,
                                             __LINE__);
    auto impl = std::make_unique<st::Library>(st::Library::IMPL, "reg", st::DispatchKey::CPU,
                                              __FILE__, __LINE__);
    for (int i = 0; i < 1000; ++i) {
      def->def(defs[static_cast<size_t>(i)]);
      impl->impl(names[static_cast<size_t>(i)], ST_FN(noop2));
    }
    state.PauseTiming();
    impl.reset();
    def.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_Register1000Ops)->Unit(benchmark::kMillisecond);

void BM_FindSchema(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::string ns = "look" + std::to_string(n);
  const std::vector<std::string> defs = schemas(ns.c_str(), n);
  st::Library lib(st::Library::FRAGMENT, ns, std::nullopt, __FILE__, __LINE__);
  for (const auto& d : defs) lib.def(d);
  st::OperatorName name(ns + "::op" + std::to_string(n / 2), "Tensor");
  auto& d = st::Dispatcher::singleton();
  for (auto _ : state) {
    auto h = d.findSchema(name);
    benchmark::DoNotOptimize(h);
  }
}
BENCHMARK(BM_FindSchema)->Arg(10)->Arg(10000);

constexpr int kCallgrindCalls = 1000;

__attribute__((noinline)) void measure_direct(const Tensor& t) {
  auto fn = g_noop;
  for (int i = 0; i < kCallgrindCalls; ++i) {
    Tensor r = fn(t);
    benchmark::DoNotOptimize(r);
  }
}

__attribute__((noinline)) void measure_typed(
    const st::TypedOperatorHandle<Tensor(const Tensor&)>& op, const Tensor& t) {
  for (int i = 0; i < kCallgrindCalls; ++i) {
    Tensor r = op.call(t);
    benchmark::DoNotOptimize(r);
  }
}

__attribute__((noinline)) void measure_boxed(const st::OperatorHandle& op, const Tensor& t,
                                             st::Stack& stack) {
  for (int i = 0; i < kCallgrindCalls; ++i) {
    stack.clear();
    stack.emplace_back(t);
    op.callBoxed(&stack);
    benchmark::DoNotOptimize(stack.data());
  }
}

__attribute__((noinline)) void measure_register(st::Library& def, st::Library& impl,
                                                const std::vector<std::string>& defs,
                                                const std::vector<std::string>& names) {
  for (size_t i = 0; i < defs.size(); ++i) {
    def.def(defs[i]);
    impl.impl(names[i], ST_FN(noop2));
  }
}

void registerRounds() {
  const std::vector<std::string> defs = schemas("reg", 1000);
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) names.push_back("op" + std::to_string(i) + ".Tensor");
  for (int round = 0; round < 2; ++round) {
    st::Library def(st::Library::FRAGMENT, "reg", std::nullopt, __FILE__, __LINE__);
    st::Library impl(st::Library::IMPL, "reg", st::DispatchKey::CPU, __FILE__, __LINE__);
    if (round == 0) {  // creates the entries, like the first iteration of the benchmark
      for (size_t i = 0; i < defs.size(); ++i) {
        def.def(defs[i]);
        impl.impl(names[i], ST_FN(noop2));
      }
    } else {
      measure_register(def, impl, defs, names);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--instructions") == 0) {
    auto op = typedNoop();
    Tensor t = cpuTensor();
    st::Stack stack;
    stack.reserve(4);
    // Warm up (first-call costs) outside the measured functions.
    (void)op.call(t);
    stack.emplace_back(t);
    op.callBoxed(&stack);
    measure_direct(t);
    measure_typed(op, t);
    measure_boxed(op, t, stack);
    registerRounds();
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
