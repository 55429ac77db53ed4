// Heap StableIValue slots: checks and the registry of tracked ones (Note
// [Checked optional slots] in stable_ivalue_slots.h).
#include "stable_ivalue_slots.h"

#include <array>
#include <atomic>
#include <mutex>
#include <sstream>
#include <unordered_set>

#include "handle_registry.h"
#include "stable_ivalue_codec.h"

namespace stc {
namespace {

constexpr uintptr_t kUserAddressEnd = uintptr_t{1} << 48;
constexpr size_t kShards = 16;

// Live tracked slots in shards (one lock each, so threads making and
// freeing slots rarely meet), and the quarantine of freed ones: a ring of
// kQuarantine slots whose memory is still held, with a set for lookups.
struct Registry {
  struct Shard {
    std::mutex mutex;
    std::unordered_set<uintptr_t> live;
  };
  std::array<Shard, kShards> shards;
  // Set once the first tracked slot is made / freed: until then the
  // lookups need no lock (most slots are extensions' own).
  std::atomic<bool> any_tracked{false};
  std::atomic<bool> any_freed{false};
  std::mutex quarantine_mutex;
  std::array<StableIValue*, kQuarantine> ring{};  // guarded by quarantine_mutex
  size_t next = 0;                                // guarded by quarantine_mutex
  std::unordered_set<uintptr_t> freed;            // guarded by quarantine_mutex

  Shard& shard(uintptr_t p) noexcept { return shards[(p >> 4) % kShards]; }
};

// Leaked on purpose: slots may be freed by static destructors of other
// libraries after this one's statics are gone.
Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

bool is_tracked(uintptr_t p) {
  if (!registry().any_tracked.load(std::memory_order_acquire)) return false;
  Registry::Shard& s = registry().shard(p);
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.live.count(p) != 0;
}

bool in_quarantine(uintptr_t p) {
  Registry& r = registry();
  if (!r.any_freed.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> lock(r.quarantine_mutex);
  return r.freed.count(p) != 0;
}

// Why `p` cannot be a heap pointer, or null when it can.
const char* implausible(uintptr_t p) noexcept {
  if (p % alignof(StableIValue) != 0) return "misaligned";
  if (p < kLowestSlotAddress) return "below the lowest mappable address";
  if (p >= kUserAddressEnd) return "above the 48-bit user address space";
  return nullptr;
}

}  // namespace

SlotPointer classify_slot_pointer(StableIValue v) noexcept {
  if (v == 0) return SlotPointer::Null;
  const uintptr_t p = static_cast<uintptr_t>(v);
  const HandleInfo info = classify(reinterpret_cast<const void*>(p));
  if (info.cls == Classification::Live) return SlotPointer::Handle;
  if (info.cls == Classification::Dead) return SlotPointer::DeadHandle;
  if (implausible(p) != nullptr) return SlotPointer::NotPointer;
  if (in_handle_memory(reinterpret_cast<const void*>(p))) return SlotPointer::InHandles;
  try {
    if (is_tracked(p)) return SlotPointer::Tracked;
    if (in_quarantine(p)) return SlotPointer::Freed;
  } catch (...) {
    // A lock could not be taken (std::system_error): without the registry
    // the pointer is as unverifiable as an extension's own.
  }
  return SlotPointer::Untracked;
}

std::string describe_slot_pointer(StableIValue v, SlotPointer kind) {
  std::ostringstream os;
  os << "0x" << std::hex << v << std::dec;
  switch (kind) {
    case SlotPointer::Null:
      return "a null pointer (0)";
    case SlotPointer::Handle:
    case SlotPointer::DeadHandle:
      return describe_payload(v);
    case SlotPointer::InHandles:
      os << " (inside handle memory, not a StableIValue slot)";
      break;
    case SlotPointer::NotPointer:
      os << " (not a pointer: " << implausible(static_cast<uintptr_t>(v)) << ")";
      break;
    case SlotPointer::Freed:
      os << " (a StableIValue slot that was already freed)";
      break;
    case SlotPointer::Tracked:
    case SlotPointer::Untracked:
      os << " (a StableIValue slot)";
      break;
  }
  return os.str();
}

const StableIValue* checked_optional_slot(const st::SchemaType& type, StableIValue v) {
  const SlotPointer kind = classify_slot_pointer(v);
  if (kind == SlotPointer::Null) return nullptr;
  if (!usable(kind)) {
    ST_ERROR("expected ", type.toString(),
             " (0, or a pointer to a heap StableIValue from torch_new_stable_ivalue) but got ",
             describe_slot_pointer(v, kind));
  }
  return reinterpret_cast<const StableIValue*>(static_cast<uintptr_t>(v));
}

StableIValue* new_tracked_slot() {
  auto* slot = new StableIValue(0);
  const uintptr_t p = reinterpret_cast<uintptr_t>(slot);
  try {
    Registry::Shard& s = registry().shard(p);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.live.insert(p);
    registry().any_tracked.store(true, std::memory_order_release);
  } catch (...) {
    delete slot;
    throw;
  }
  return slot;
}

void free_usable_slot(StableIValue* slot, SlotPointer kind) noexcept {
  if (kind != SlotPointer::Tracked) {
    delete slot;
    return;
  }
  const uintptr_t p = reinterpret_cast<uintptr_t>(slot);
  Registry& r = registry();
  StableIValue* evicted = nullptr;
  try {
    {
      Registry::Shard& s = r.shard(p);
      std::lock_guard<std::mutex> lock(s.mutex);
      // Gone meanwhile: another thread freed it first (a double free
      // racing this one); leave it to that one.
      if (s.live.erase(p) == 0) return;
    }
    std::lock_guard<std::mutex> lock(r.quarantine_mutex);
    r.freed.insert(p);  // may throw: the slot is then freed at once below
    r.any_freed.store(true, std::memory_order_release);
    evicted = r.ring[r.next];
    r.ring[r.next] = slot;
    r.next = (r.next + 1) % kQuarantine;
    if (evicted != nullptr) r.freed.erase(reinterpret_cast<uintptr_t>(evicted));
  } catch (...) {
    evicted = slot;  // no room to remember it: free it now
  }
  delete evicted;
}

}  // namespace stc
