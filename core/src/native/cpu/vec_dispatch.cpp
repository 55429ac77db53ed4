// Picks the vectorized kernels' variant for this CPU once; see
// vec_kernels.h. Compiled for the baseline ISA.
#include "vec_kernels.h"

#include <cstdlib>
#include <cstring>

namespace st::native::cpu {

namespace {

bool cpu_has(const char* isa) {
  if (std::strcmp(isa, "default") == 0) return true;
  // __builtin_cpu_supports also checks that the OS saves the wider
  // register state (XCR0), so a feature reported here is usable.
  if (std::strcmp(isa, "avx2") == 0) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }
  if (std::strcmp(isa, "avx512") == 0 || std::strcmp(isa, "avx512_256") == 0) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
  }
  return false;
}

// AMD's family 19h cores with AVX-512 (Zen 4) execute a 512-bit operation
// as two 256-bit halves, and stream memory faster with 32-byte vectors
// (vec_width.inc).
bool avx512_on_256_bit_units() { return __builtin_cpu_is("amdfam19h") != 0; }

const VecKernels& select() {
  __builtin_cpu_init();
  // ST_CPU_CAPABILITY caps the choice (like PyTorch's ATEN_CPU_CAPABILITY).
  const char* want = std::getenv("ST_CPU_CAPABILITY");
  if (want != nullptr) {
    if (const VecKernels* k = vec_kernels_for(want)) return *k;
  }
  if (cpu_has("avx512")) {
    return avx512_on_256_bit_units() ? vec_kernels_avx512_256() : vec_kernels_avx512();
  }
  if (cpu_has("avx2")) return vec_kernels_avx2();
  return vec_kernels_default();
}

}  // namespace

bool software_prefetch() {
  static const bool on = [] {
    __builtin_cpu_init();
    return __builtin_cpu_is("intel") != 0;
  }();
  return on;
}

const VecKernels* vec_kernels_for(const char* isa) {
  if (isa == nullptr || !cpu_has(isa)) return nullptr;
  if (std::strcmp(isa, "avx512") == 0) return &vec_kernels_avx512();
  if (std::strcmp(isa, "avx512_256") == 0) return &vec_kernels_avx512_256();
  if (std::strcmp(isa, "avx2") == 0) return &vec_kernels_avx2();
  return &vec_kernels_default();
}

const VecKernels& vec_kernels() {
  static const VecKernels& k = select();
  return k;
}

}  // namespace st::native::cpu
