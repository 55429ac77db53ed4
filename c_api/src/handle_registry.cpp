// The slot registry behind every C ABI handle (Note [Validated handles]).
#include "handle_registry.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <vector>

namespace stc {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 18;  // 256 KiB
constexpr size_t kSlotsPerChunk = kChunkBytes / sizeof(Slot);
constexpr size_t kChunkTableSize = 8192;  // power of two; at most half full
constexpr unsigned kRing = 256;           // per-thread cache capacity
constexpr unsigned kQuarantine = 64;      // freed slots held back before reuse

size_t chunk_hash(uintptr_t base) noexcept {
  uint64_t x = static_cast<uint64_t>(base >> 18);
  x *= 0x9e3779b97f4a7c15ULL;
  return static_cast<size_t>(x >> 40) & (kChunkTableSize - 1);
}

// Process-wide state; leaked on purpose so that handles deleted from
// static destructors and thread exits after main still find it.
struct Global {
  std::array<std::atomic<uintptr_t>, kChunkTableSize> chunks{};
  size_t num_chunks = 0;  // guarded by mutex
  std::mutex mutex;
  Slot* free_list = nullptr;  // linked through the first payload word
  Slot* bump = nullptr;       // next never-used slot of the newest chunk
  Slot* bump_end = nullptr;
  // Live-handle counts of threads that have exited; running threads keep
  // their own (see ThreadState) and are listed in `threads`.
  std::array<std::atomic<int64_t>, kNumHandleKinds> retired_counts{};
  std::vector<struct ThreadState*> threads;  // guarded by mutex

  // The chunk most recently found, checked first (handles of one program
  // phase mostly come from one chunk).
  mutable std::atomic<uintptr_t> recent_chunk{1};

  bool owns_chunk(uintptr_t base) const noexcept {
    if (base == recent_chunk.load(std::memory_order_relaxed)) return true;
    return owns_chunk_slow(base);
  }

  bool owns_chunk_slow(uintptr_t base) const noexcept {
    for (size_t i = chunk_hash(base), n = 0; n < kChunkTableSize; i = (i + 1) & (kChunkTableSize - 1), ++n) {
      const uintptr_t v = chunks[i].load(std::memory_order_acquire);
      if (v == base) {
        recent_chunk.store(base, std::memory_order_relaxed);
        return true;
      }
      if (v == 0) return false;
    }
    return false;
  }

  // Precondition: mutex held.
  void add_chunk() {
    ST_CHECK(num_chunks < kChunkTableSize / 2, "the C ABI handle registry is full (",
             num_chunks * kSlotsPerChunk, " handles); handles are being leaked");
    void* mem = std::aligned_alloc(kChunkBytes, kChunkBytes);
    if (mem == nullptr) throw std::bad_alloc();
    std::memset(mem, 0, kChunkBytes);  // every tag starts Dead
    const uintptr_t base = reinterpret_cast<uintptr_t>(mem);
    size_t i = chunk_hash(base);
    while (chunks[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & (kChunkTableSize - 1);
    chunks[i].store(base, std::memory_order_release);
    ++num_chunks;
    bump = static_cast<Slot*>(mem);
    bump_end = bump + kSlotsPerChunk;
  }

  // Precondition: mutex held.
  Slot* take() {
    if (free_list != nullptr) {
      Slot* s = free_list;
      std::memcpy(&free_list, s->payload, sizeof(Slot*));
      return s;
    }
    if (bump == bump_end) add_chunk();
    return bump++;
  }

  // Precondition: mutex held.
  void give(Slot* s) noexcept {
    std::memcpy(s->payload, &free_list, sizeof(Slot*));
    free_list = s;
  }
};

Global* make_global() { return new Global(); }
Global* const g_global = make_global();  // at load time, before any handle exists

inline __attribute__((always_inline)) Global& global() noexcept { return *g_global; }

// Per-thread state, one TLS lookup per operation:
//  - a FIFO of freed slots: a slot is reused only after kQuarantine later
//    frees by this thread, which keeps use-after-delete detectable meanwhile;
//  - this thread's created-minus-deleted counts per kind (a handle made on
//    one thread and deleted on another leaves +1 and -1; the sum is right).
//    Only the owning thread writes them (relaxed load + store, no RMW);
//    live_count_total reads them under the registry mutex.
struct ThreadState;
extern __attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state;
extern __attribute__((tls_model("initial-exec"))) thread_local bool t_state_gone;

struct ThreadState {
  std::array<Slot*, kRing> ring{};
  unsigned head = 0;  // oldest
  unsigned count = 0;
  std::array<std::atomic<int64_t>, kNumHandleKinds> counts{};

  ThreadState() {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mutex);
    g.threads.push_back(this);
  }
  Slot* pop_oldest() noexcept {
    Slot* s = ring[head];
    head = (head + 1) % kRing;
    --count;
    return s;
  }
  void bump(int kind, int64_t delta) noexcept {
    counts[kind].store(counts[kind].load(std::memory_order_relaxed) + delta,
                       std::memory_order_relaxed);
  }
  ~ThreadState() {
    t_state = nullptr;
    t_state_gone = true;
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mutex);
    while (count > 0) g.give(pop_oldest());
    for (int k = 0; k < kNumHandleKinds; ++k) {
      g.retired_counts[k].fetch_add(counts[k].load(std::memory_order_relaxed),
                                    std::memory_order_relaxed);
    }
    for (size_t i = 0; i < g.threads.size(); ++i) {
      if (g.threads[i] == this) {
        g.threads[i] = g.threads.back();
        g.threads.pop_back();
        break;
      }
    }
  }
};

// Note [Fast thread-local access]
// A shared library's thread_local costs a __tls_get_addr call per access
// (general-dynamic model). The hot paths read one initial-exec pointer
// instead (8 bytes of static TLS, which glibc reserves room for even when
// the library is dlopen'ed); the object itself is an ordinary thread_local
// whose destructor runs at thread exit.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state = nullptr;
// Set once this thread's ThreadState is destroyed (thread or process exit):
// handles deleted later, e.g. by static destructors, take the global path.
__attribute__((tls_model("initial-exec"))) thread_local bool t_state_gone = false;

__attribute__((noinline)) ThreadState* init_thread_state() {
  if (t_state_gone) return nullptr;
  thread_local ThreadState t;
  t_state = &t;
  return &t;
}

// Null after this thread's state is gone.
inline ThreadState* thread_state() noexcept {
  ThreadState* s = t_state;
  if (__builtin_expect(s != nullptr, 1)) return s;
  return init_thread_state();
}

int kind_index(HandleKind k) noexcept {
  return static_cast<int>(static_cast<uint32_t>(k) - static_cast<uint32_t>(HandleKind::Tensor));
}

bool is_live_kind(uint32_t tag) noexcept {
  return tag >= static_cast<uint32_t>(HandleKind::Tensor) &&
         tag < static_cast<uint32_t>(HandleKind::Tensor) + kNumHandleKinds;
}

}  // namespace

const char* kind_name(HandleKind k) noexcept {
  switch (k) {
    case HandleKind::Dead: return "deleted";
    case HandleKind::Tensor: return "tensor";
    case HandleKind::List: return "list";
    case HandleKind::String: return "string";
    case HandleKind::Scalar: return "scalar";
    case HandleKind::Library: return "library";
    case HandleKind::DeviceGuard: return "device guard";
    case HandleKind::Stream: return "stream";
    case HandleKind::CudaGuard: return "CUDA guard";
    case HandleKind::CudaStreamGuard: return "CUDA stream guard";
  }
  return "unknown";
}

HandleInfo classify(const void* handle) noexcept {
  if (handle == nullptr) return {Classification::Null, HandleKind::Dead, nullptr};
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  const uintptr_t base = p & ~(uintptr_t{kChunkBytes} - 1);
  if ((p - base) % sizeof(Slot) != 0 || !global().owns_chunk(base)) {
    return {Classification::Foreign, HandleKind::Dead, nullptr};
  }
  Slot* s = reinterpret_cast<Slot*>(p);
  const uint32_t tag = s->kind.load(std::memory_order_acquire);
  if (!is_live_kind(tag)) return {Classification::Dead, HandleKind::Dead, s};
  return {Classification::Live, static_cast<HandleKind>(tag), s};
}

Slot* allocate_slot(HandleKind kind) {
  ThreadState* c = thread_state();
  Global& g = global();
  if (__builtin_expect(c == nullptr, 0)) {
    std::lock_guard<std::mutex> lock(g.mutex);
    Slot* s = g.take();
    g.retired_counts[kind_index(kind)].fetch_add(1, std::memory_order_relaxed);
    return s;
  }
  if (c->count > kQuarantine) {
    c->bump(kind_index(kind), 1);
    return c->pop_oldest();
  }
  std::lock_guard<std::mutex> lock(g.mutex);
  Slot* s = g.take();
  c->bump(kind_index(kind), 1);
  return s;
}

void free_slot(Slot* slot, HandleKind kind) noexcept {
  slot->kind.store(static_cast<uint32_t>(HandleKind::Dead), std::memory_order_release);
  ThreadState* c = thread_state();
  Global& g = global();
  if (__builtin_expect(c == nullptr, 0)) {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.give(slot);
    g.retired_counts[kind_index(kind)].fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  c->bump(kind_index(kind), -1);
  if (c->count == kRing) {
    std::lock_guard<std::mutex> lock(g.mutex);
    for (unsigned i = 0; i < kRing / 2; ++i) g.give(c->pop_oldest());
  }
  c->ring[(c->head + c->count) % kRing] = slot;
  ++c->count;
}

int64_t live_count(HandleKind k) noexcept {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  int64_t n = g.retired_counts[kind_index(k)].load(std::memory_order_relaxed);
  for (const ThreadState* t : g.threads) n += t->counts[kind_index(k)].load(std::memory_order_relaxed);
  return n;
}

int64_t live_count_total() noexcept {
  int64_t n = 0;
  for (int k = 0; k < kNumHandleKinds; ++k) {
    n += live_count(static_cast<HandleKind>(static_cast<uint32_t>(HandleKind::Tensor) + k));
  }
  return n;
}

void throw_bad_handle(const void* handle, HandleKind expected, const HandleInfo& info,
                      const char* what) {
  std::ostringstream os;
  os << what << ": ";
  switch (info.cls) {
    case Classification::Null:
      os << "null " << kind_name(expected) << " handle";
      break;
    case Classification::Foreign:
      os << "foreign " << kind_name(expected) << " handle " << handle
         << " (not a handle made by this library)";
      break;
    case Classification::Dead:
      os << kind_name(expected) << " handle " << handle << " was already deleted";
      break;
    case Classification::Live:
      os << "expected a " << kind_name(expected) << " handle but got a " << kind_name(info.kind)
         << " handle " << handle;
      break;
  }
  throw st::Error(os.str());
}

}  // namespace stc
