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

  uint32_t random();      // uniform 32 bits
  uint64_t random64();    // uniform 64 bits
  double uniform_double();  // [0, 1) with 53 random bits
  float uniform_float();    // [0, 1) with 24 random bits

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
  explicit Generator(intrusive_ptr<GeneratorImpl> impl)
      : impl_(std::move(impl)) {}

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

ST_API Generator make_cpu_generator(
    uint64_t seed = CPUGeneratorImpl::kDefaultSeed);
ST_API Generator default_cpu_generator();
// Seeds the default CPU generator.
ST_API void manual_seed(uint64_t seed);

}  // namespace st
