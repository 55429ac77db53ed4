// CUDA backend benchmarks, each beside a reference measured in the same run
// with the raw CUDA runtime (cudaMemcpy, cudaMalloc/cudaFree, an empty
// kernel-free sync): bandwidth of add / copy_ / sum, the launch overhead of
// a one-element operator, and caching-allocator reuse. Without a GPU every
// benchmark reports "no CUDA device" (SkipWithError) instead of a number.
#include <benchmark/benchmark.h>

#include <cuda_runtime_api.h>

#include <st/core/empty_tensor.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>

namespace {

const st::Device kCuda("cuda:0");

bool skip_without_device(benchmark::State& state) {
  if (st::device_count(st::DeviceType::CUDA) > 0) return false;
  state.SkipWithError("no CUDA device: cudaGetDeviceCount reports none on this machine");
  return true;
}

void sync() { st::synchronize_device(kCuda); }

void set_bytes(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

// Reference: device-to-device cudaMemcpy of n floats.
void BM_RawCudaMemcpyD2D(benchmark::State& state) {
  if (skip_without_device(state)) return;
  const size_t n = static_cast<size_t>(state.range(0));
  void* a = nullptr;
  void* b = nullptr;
  if (cudaMalloc(&a, n * 4) != cudaSuccess || cudaMalloc(&b, n * 4) != cudaSuccess) {
    state.SkipWithError("cudaMalloc failed");
    return;
  }
  for (auto _ : state) {
    cudaMemcpy(b, a, n * 4, cudaMemcpyDeviceToDevice);
  }
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  set_bytes(state, static_cast<int64_t>(2 * n * 4));
}
BENCHMARK(BM_RawCudaMemcpyD2D)->Arg(1 << 20)->Arg(1 << 24);

void BM_CopyD2D(benchmark::State& state) {
  if (skip_without_device(state)) return;
  const int64_t n = state.range(0);
  st::Tensor a = st::ones({n}, st::ScalarType::Float, std::nullopt, kCuda);
  st::Tensor b = st::empty({n}, st::ScalarType::Float, std::nullopt, kCuda);
  for (auto _ : state) st::copy_(b, a);
  sync();
  set_bytes(state, 2 * n * 4);
}
BENCHMARK(BM_CopyD2D)->Arg(1 << 20)->Arg(1 << 24);

// copy_ with a dtype conversion (float -> half): the strided kernel.
void BM_CopyConvertD2D(benchmark::State& state) {
  if (skip_without_device(state)) return;
  const int64_t n = state.range(0);
  st::Tensor a = st::ones({n}, st::ScalarType::Float, std::nullopt, kCuda);
  st::Tensor b = st::empty({n}, st::ScalarType::Half, std::nullopt, kCuda);
  for (auto _ : state) st::copy_(b, a);
  sync();
  set_bytes(state, n * 6);
}
BENCHMARK(BM_CopyConvertD2D)->Arg(1 << 24);

void BM_AddFloat(benchmark::State& state) {
  if (skip_without_device(state)) return;
  const int64_t n = state.range(0);
  st::Tensor a = st::ones({n}, st::ScalarType::Float, std::nullopt, kCuda);
  st::Tensor b = st::ones({n}, st::ScalarType::Float, std::nullopt, kCuda);
  st::Tensor c = st::empty({n}, st::ScalarType::Float, std::nullopt, kCuda);
  for (auto _ : state) st::add_out(c, a, b);
  sync();
  set_bytes(state, 3 * n * 4);
}
BENCHMARK(BM_AddFloat)->Arg(1 << 20)->Arg(1 << 24);

void BM_SumFloat(benchmark::State& state) {
  if (skip_without_device(state)) return;
  const int64_t n = state.range(0);
  st::Tensor a = st::ones({n}, st::ScalarType::Float, std::nullopt, kCuda);
  for (auto _ : state) benchmark::DoNotOptimize(st::sum(a));
  sync();
  set_bytes(state, n * 4);
}
BENCHMARK(BM_SumFloat)->Arg(1 << 20)->Arg(1 << 24);

// Reference for the launch overhead: a stream synchronize with no work.
void BM_RawStreamSync(benchmark::State& state) {
  if (skip_without_device(state)) return;
  for (auto _ : state) cudaStreamSynchronize(nullptr);
}
BENCHMARK(BM_RawStreamSync);

// One-element fill_: dispatcher + guard + kernel launch, no sync.
void BM_LaunchFillOneElement(benchmark::State& state) {
  if (skip_without_device(state)) return;
  st::Tensor a = st::empty({1}, st::ScalarType::Float, std::nullopt, kCuda);
  for (auto _ : state) st::fill_(a, 1.0);
  sync();
}
BENCHMARK(BM_LaunchFillOneElement);

// Reference: cudaMalloc + cudaFree of 1 MiB.
void BM_RawCudaMallocFree(benchmark::State& state) {
  if (skip_without_device(state)) return;
  for (auto _ : state) {
    void* p = nullptr;
    cudaMalloc(&p, 1 << 20);
    cudaFree(p);
  }
}
BENCHMARK(BM_RawCudaMallocFree);

// The caching allocator handing back the same 1 MiB block.
void BM_CachingAllocatorReuse(benchmark::State& state) {
  if (skip_without_device(state)) return;
  st::Allocator* a = &st::cuda::caching_allocator();
  for (auto _ : state) {
    st::DataPtr p = a->allocate(1 << 20);
    benchmark::DoNotOptimize(p.get());
  }
  state.counters["cache_hits"] =
      static_cast<double>(st::cuda::caching_allocator().stats().num_cache_hits);
}
BENCHMARK(BM_CachingAllocatorReuse);

}  // namespace

BENCHMARK_MAIN();
