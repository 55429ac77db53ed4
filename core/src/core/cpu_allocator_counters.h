// The CPU allocator's statistics, for the CPU memory the core hands out
// without going through CpuAllocator::allocate (the small data a factory
// keeps inside its tensor's block, Note [Small data in the block] in
// tensor_impl.cpp), so cpu_allocator_stats() counts every byte of CPU
// tensor data the same way.
#pragma once

#include <cstddef>

#include <st/core/allocator.h>

namespace st {
namespace detail {

// True for the built-in CPU allocator, the one whose memory these counters
// describe (not one installed with set_allocator).
bool is_builtin_cpu_allocator(const Allocator* allocator) noexcept;

// One allocation of nbytes began / ended. Thread-safe (relaxed atomics).
void count_cpu_allocation(size_t nbytes) noexcept;
void count_cpu_free(size_t nbytes) noexcept;

}  // namespace detail
}  // namespace st
