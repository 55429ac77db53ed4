#include <st/core/generator.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>

#include <st/core/error.h>

#include "native/cpu/vec_kernels.h"

namespace st {

namespace {
constexpr uint32_t kMul0 = 0xD2511F53u;
constexpr uint32_t kMul1 = 0xCD9E8D57u;
constexpr uint32_t kWeyl0 = 0x9E3779B9u;
constexpr uint32_t kWeyl1 = 0xBB67AE85u;
constexpr uint32_t kStateVersion = 1;
constexpr uint32_t kStateMagic = 0x53545047u;  // "STPG"

inline void mulhilo(uint32_t a, uint32_t b, uint32_t* hi, uint32_t* lo) {
  const uint64_t p = static_cast<uint64_t>(a) * b;
  *hi = static_cast<uint32_t>(p >> 32);
  *lo = static_cast<uint32_t>(p);
}
}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kMul0, ctr[0], &hi0, &lo0);
    mulhilo(kMul1, ctr[2], &hi1, &lo1);
    ctr = {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
  }
  return ctr;
}

CPUGeneratorImpl::CPUGeneratorImpl(uint64_t seed)
    : GeneratorImpl(Device(DeviceType::CPU)), seed_(seed) {}

void CPUGeneratorImpl::set_current_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  counter_ = 0;
  word_ = 4;
}

uint64_t CPUGeneratorImpl::current_seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

uint64_t CPUGeneratorImpl::seed() {
  std::random_device rd;
  const uint64_t s =
      (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
      static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  set_current_seed(s);
  return s;
}

// Layout (little-endian host order): magic u32, version u32, seed u64,
// counter u64, word u32, reserved u32.
std::vector<uint8_t> CPUGeneratorImpl::get_state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<uint8_t> out(kStateSize, 0);
  const uint32_t magic = kStateMagic, version = kStateVersion;
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &version, 4);
  std::memcpy(out.data() + 8, &seed_, 8);
  std::memcpy(out.data() + 16, &counter_, 8);
  std::memcpy(out.data() + 24, &word_, 4);
  return out;
}

void CPUGeneratorImpl::set_state(const std::vector<uint8_t>& state) {
  ST_CHECK(state.size() == kStateSize,
           "CPUGenerator::set_state: expected a "
           "state of ",
           kStateSize, " bytes, got ", state.size());
  uint32_t magic, version, word;
  uint64_t seed, counter;
  std::memcpy(&magic, state.data(), 4);
  std::memcpy(&version, state.data() + 4, 4);
  std::memcpy(&seed, state.data() + 8, 8);
  std::memcpy(&counter, state.data() + 16, 8);
  std::memcpy(&word, state.data() + 24, 4);
  ST_CHECK(magic == kStateMagic && version == kStateVersion,
           "CPUGenerator::set_state: expected a CPU Philox state of version ", kStateVersion,
           ", got magic ", magic, " version ", version);
  ST_CHECK(word <= 4, "CPUGenerator::set_state: corrupt state (word index ", word,
           ", expected at most 4)");
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  counter_ = counter;
  word_ = word;
  if (word_ < 4) {
    // Recompute the partly used block (counter_ already points past it).
    block_ = philox4x32_10(
        {static_cast<uint32_t>(counter_ - 1), static_cast<uint32_t>((counter_ - 1) >> 32), 0, 0},
        {static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32)});
  }
}

uint32_t CPUGeneratorImpl::next_word_locked() {
  if (word_ >= 4) {
    block_ = philox4x32_10(
        {static_cast<uint32_t>(counter_), static_cast<uint32_t>(counter_ >> 32), 0, 0},
        {static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32)});
    ++counter_;
    word_ = 0;
  }
  return block_[word_++];
}

uint32_t CPUGeneratorImpl::random() {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_word_locked();
}

uint64_t CPUGeneratorImpl::random64() {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t hi = next_word_locked();
  const uint64_t lo = next_word_locked();
  return (hi << 32) | lo;
}

double CPUGeneratorImpl::uniform_double() { return uniform_double_from_bits(random64()); }

float CPUGeneratorImpl::uniform_float() { return uniform_float_from_bits(random()); }

void CPUGeneratorImpl::fill_words(uint32_t* dst, size_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (n > 0 && word_ < 4) {  // the rest of the current block
    *dst++ = block_[word_++];
    --n;
  }
  const std::array<uint32_t, 2> key{static_cast<uint32_t>(seed_),
                                    static_cast<uint32_t>(seed_ >> 32)};
  if (n >= 4) {  // whole blocks, straight to dst, by the vector kernel
    const size_t blocks = n / 4;
    native::cpu::vec_kernels().philox4x32_10(dst, counter_, seed_, static_cast<int64_t>(blocks));
    counter_ += blocks;
    dst += 4 * blocks;
    n -= 4 * blocks;
  }
  if (n > 0) {  // the start of a block; the rest stays for the next draw
    block_ = philox4x32_10(
        {static_cast<uint32_t>(counter_), static_cast<uint32_t>(counter_ >> 32), 0, 0}, key);
    ++counter_;
    for (word_ = 0; word_ < n; ++word_) dst[word_] = block_[word_];
  }
}

void RandomWordStream::refill() {
  // What was announced (a batch at most); past the announcement, one word at
  // a time, so the generator never moves past what was consumed.
  const uint64_t want = expected_ > 0 ? std::min<uint64_t>(expected_, kBatch) : 1;
  generator_->fill_words(buffer_, static_cast<size_t>(want));
  expected_ -= std::min<uint64_t>(expected_, want);
  pos_ = 0;
  end_ = static_cast<size_t>(want);
}

CPUGeneratorImpl::PhiloxRange CPUGeneratorImpl::philox_reserve(uint64_t blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  PhiloxRange r{seed_, counter_};
  counter_ += blocks;
  word_ = 4;
  return r;
}

CPUGeneratorImpl* Generator::cpu() const {
  ST_CHECK(impl_.defined(), "Generator: expected a defined generator");
  ST_CHECK(impl_->device().is_cpu(),
           "Generator: expected a CPU generator, "
           "got one for ",
           impl_->device());
  return static_cast<CPUGeneratorImpl*>(impl_.get());
}

Generator make_cpu_generator(uint64_t seed) {
  return Generator(make_intrusive<CPUGeneratorImpl>(seed));
}

Generator default_cpu_generator() {
  // Intentionally leaked: usable during static destruction of other units.
  static Generator* g = new Generator(make_cpu_generator());
  return *g;
}

void manual_seed(uint64_t seed) { default_cpu_generator()->set_current_seed(seed); }

}  // namespace st
