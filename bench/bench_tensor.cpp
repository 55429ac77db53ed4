// Tensor create+destroy latency and parallel_for overhead, each beside a
// reference measured in the same run (malloc+free; a direct call).

#include <benchmark/benchmark.h>

#include <cstdlib>

#include <st/core/empty_tensor.h>
#include <st/core/parallel.h>
#include <st/core/tensor.h>

namespace {

// Reference: one small heap allocation and its release.
void BM_MallocFree(benchmark::State& state) {
  for (auto _ : state) {
    void* p = std::malloc(4);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}
BENCHMARK(BM_MallocFree);

// Reference: the three allocations a tensor needs (TensorImpl, StorageImpl,
// aligned data) done with plain malloc/aligned_alloc.
void BM_MallocFreeX3(benchmark::State& state) {
  for (auto _ : state) {
    void* a = std::malloc(96);
    void* b = std::malloc(64);
    void* c = std::aligned_alloc(64, 128);
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(c);
    std::free(c);
    std::free(b);
    std::free(a);
  }
}
BENCHMARK(BM_MallocFreeX3);

void BM_EmptyScalar(benchmark::State& state) {
  const st::Device cpu(st::DeviceType::CPU);
  for (auto _ : state) {
    st::Tensor t = st::detail::empty_generic({}, st::ScalarType::Float, cpu);
    benchmark::DoNotOptimize(t.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_EmptyScalar);

void BM_Empty1(benchmark::State& state) {
  const st::Device cpu(st::DeviceType::CPU);
  for (auto _ : state) {
    st::Tensor t = st::detail::empty_generic({1}, st::ScalarType::Float, cpu);
    benchmark::DoNotOptimize(t.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_Empty1);

void BM_Empty4d(benchmark::State& state) {
  const st::Device cpu(st::DeviceType::CPU);
  for (auto _ : state) {
    st::Tensor t = st::detail::empty_generic({2, 3, 4, 5}, st::ScalarType::Float, cpu);
    benchmark::DoNotOptimize(t.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_Empty4d);

// Reference: calling the body directly.
void BM_DirectCallEmptyBody(benchmark::State& state) {
  auto body = [](int64_t b, int64_t e) { benchmark::DoNotOptimize(b + e); };
  for (auto _ : state) {
    body(0, 1 << 16);
  }
}
BENCHMARK(BM_DirectCallEmptyBody);

// parallel_for overhead with an empty body, split over all threads.
void BM_ParallelForEmptyBody(benchmark::State& state) {
  st::set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    st::parallel_for(0, 1 << 16, 1, [](int64_t b, int64_t e) { benchmark::DoNotOptimize(b + e); });
  }
  state.counters["threads"] = static_cast<double>(st::get_num_threads());
}
BENCHMARK(BM_ParallelForEmptyBody)->Arg(1)->Arg(2)->Arg(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
