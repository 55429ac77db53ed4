// Random number generators. The CPU generator is Philox4x32-10, a
// counter-based generator: the stream is a pure function of (seed, counter),
// so state is tiny (saved/restored as bytes), and a kernel can reserve a
// block of counters (philox_reserve) and generate it in parallel.
//
// Every method locks the generator's mutex, so one generator may be shared
// by threads. default_cpu_generator() is the process-wide default.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/intrusive_ptr.h>

namespace st {

// One Philox4x32-10 block: 4 random 32-bit words for (counter, key).
ST_API std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter,
                                             std::array<uint32_t, 2> key);

// The conversions of random bits to uniform floating values, shared by the
// generator's own draws and bulk consumers (RandomWordStream).
// [0, 1) with 53 random bits: the top 53 of `bits`.
inline double uniform_double_from_bits(uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}
// [0, 1) with 24 random bits: the top 24 of `bits`.
inline float uniform_float_from_bits(uint32_t bits) {
  return static_cast<float>(bits >> 8) * 0x1.0p-24f;
}

class ST_API GeneratorImpl : public intrusive_ptr_target {
 public:
  explicit GeneratorImpl(Device device) : device_(device) {}
  Device device() const noexcept { return device_; }

  virtual void set_current_seed(uint64_t seed) = 0;
  virtual uint64_t current_seed() const = 0;
  // Seeds from a non-deterministic source; returns the seed used.
  virtual uint64_t seed() = 0;
  virtual std::vector<uint8_t> get_state() const = 0;
  // Throws st::Error for a state of the wrong size or version.
  virtual void set_state(const std::vector<uint8_t>& state) = 0;

  std::mutex& mutex() const noexcept { return mutex_; }

 protected:
  mutable std::mutex mutex_;

 private:
  Device device_;
};

class ST_API CPUGeneratorImpl final : public GeneratorImpl {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;
  static constexpr size_t kStateSize = 32;

  explicit CPUGeneratorImpl(uint64_t seed = kDefaultSeed);

  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
  std::vector<uint8_t> get_state() const override;
  void set_state(const std::vector<uint8_t>& state) override;

  uint32_t random();        // uniform 32 bits
  uint64_t random64();      // uniform 64 bits
  double uniform_double();  // [0, 1) with 53 random bits
  float uniform_float();    // [0, 1) with 24 random bits

  // Writes the next n words of the stream to dst: the words n calls of
  // random() would return, in order, under one lock.
  void fill_words(uint32_t* dst, size_t n);

  // Reserves `blocks` Philox blocks for the caller and returns the seed
  // and the first counter; the generator moves past them.
  struct PhiloxRange {
    uint64_t seed;
    uint64_t counter;
  };
  PhiloxRange philox_reserve(uint64_t blocks);

 private:
  uint32_t next_word_locked();

  uint64_t seed_;
  uint64_t counter_ = 0;  // next block
  uint32_t word_ = 4;     // next word in block_ (4 = block exhausted)
  std::array<uint32_t, 4> block_{};
};

// Value handle (like torch.Generator); copies share the generator.
class ST_API Generator {
 public:
  Generator() = default;
  explicit Generator(intrusive_ptr<GeneratorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const noexcept { return impl_.defined(); }
  GeneratorImpl* get() const noexcept { return impl_.get(); }
  GeneratorImpl* operator->() const noexcept { return impl_.get(); }
  const intrusive_ptr<GeneratorImpl>& impl() const noexcept { return impl_; }
  Device device() const { return impl_->device(); }
  // The CPU implementation; throws st::Error for other devices.
  CPUGeneratorImpl* cpu() const;

 private:
  intrusive_ptr<GeneratorImpl> impl_;
};

// Reads a CPU generator's stream word by word, fetching words in batches
// (fill_words) so that a kernel drawing millions of values takes the lock
// once per batch rather than once per value. It fetches only words the
// caller has announced (`expected_words`, a lower bound on what it will
// consume; past it, words are fetched one at a time), so the
// generator ends exactly where the same draws through random() would leave
// it, and the values are the same. Not thread-safe: one stream per thread.
class ST_API RandomWordStream {
 public:
  RandomWordStream(CPUGeneratorImpl* generator, uint64_t expected_words)
      : generator_(generator), expected_(expected_words) {}

  uint32_t next() {
    if (pos_ == end_) refill();
    return buffer_[pos_++];
  }
  // Two words, the first one high (as CPUGeneratorImpl::random64).
  uint64_t next64() {
    const uint64_t hi = next();
    const uint64_t lo = next();
    return (hi << 32) | lo;
  }
  double uniform_double() { return uniform_double_from_bits(next64()); }
  float uniform_float() { return uniform_float_from_bits(next()); }

 private:
  void refill();

  static constexpr size_t kBatch = 1024;
  CPUGeneratorImpl* generator_;
  uint64_t expected_;  // announced words not fetched yet
  size_t pos_ = 0;
  size_t end_ = 0;
  uint32_t buffer_[kBatch];
};

ST_API Generator make_cpu_generator(uint64_t seed = CPUGeneratorImpl::kDefaultSeed);
ST_API Generator default_cpu_generator();
// Seeds the default CPU generator.
ST_API void manual_seed(uint64_t seed);

}  // namespace st
