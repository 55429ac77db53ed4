// st::DispatchReadGuard: marks the span in which a thread may hold a
// dispatch table (or the kernels and schema it keeps alive), so that the
// dispatcher frees a replaced table only once no thread can still use it.
// Note [Publishing and reclaiming dispatch tables] in operator_entry.h.
#pragma once

#include <atomic>
#include <cstdint>

#include <st/core/export.h>

namespace st {

namespace detail {

// Note [Read sections]
// Each thread has one sequence number: 0 until the thread's first read
// section (the slow path then registers it with the reclaimer), odd while
// the thread is outside any read section, even while it is inside one.
// Entering the outermost section and leaving it each add 1, so a writer
// that saw an even value v knows the section it saw has ended as soon as
// the value differs from v. Nested sections (a kernel calling another
// operator) leave the number alone.
//
// The hot path is a load, a test and a plain store: no fence. A writer
// pairs it with a process-wide barrier (membarrier) before it looks at the
// numbers, which orders this store before the table load below on every
// CPU that runs a reader (table_reclaimer.cpp). The compiler barrier keeps
// the compiler from moving the table load above the store.
//
// A plain __thread variable: no C++ init wrapper, and with TLS
// descriptors one call that returns an offset (Note [Fast thread-local
// access] in c_api/src/handle_registry.h).
ST_API extern __thread uint64_t t_read_seq;

// Registers the calling thread (seq 0; an even seq is a nested section and
// returned as is). Returns the value to store when the section ends.
ST_API uint64_t enterReadSectionSlow(uint64_t seq) noexcept;

}  // namespace detail

// While alive, no dispatch table this thread loads (nor its kernels or
// schema) is freed. Cheap and lock-free; nests. Every path that reads
// OperatorEntry::table() outside the dispatcher mutex holds one for as long
// as it uses what it read: the call path holds it across the kernel call.
class DispatchReadGuard {
 public:
  // The thread's sequence number is located once, here, and its address
  // kept for the destructor: with TLS descriptors each access to a
  // __thread variable is a call, which the compiler would otherwise repeat
  // after the kernel call (it rematerializes TLS addresses rather than
  // keep them); the empty asm makes the address an opaque value it keeps.
  __attribute__((always_inline)) DispatchReadGuard() noexcept : seq_(&detail::t_read_seq) {
    asm("" : "+r"(seq_));
    const uint64_t seq = __atomic_load_n(seq_, __ATOMIC_RELAXED);
    if (__builtin_expect(seq & 1, 1)) {
      restore_ = seq + 2;
      __atomic_store_n(seq_, seq + 1, __ATOMIC_RELAXED);
    } else if (seq != 0) {
      restore_ = seq;  // nested: the outer section's end counts
    } else {
      restore_ = detail::enterReadSectionSlow(seq);
    }
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  // Release: every read of the section happens before a writer that sees
  // the new value frees anything.
  __attribute__((always_inline)) ~DispatchReadGuard() {
    __atomic_store_n(seq_, restore_, __ATOMIC_RELEASE);
  }
  DispatchReadGuard(const DispatchReadGuard&) = delete;
  DispatchReadGuard& operator=(const DispatchReadGuard&) = delete;

 private:
  uint64_t* seq_;  // this thread's t_read_seq
  uint64_t restore_;
};

}  // namespace st
