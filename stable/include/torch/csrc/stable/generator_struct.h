// torch::stable::Generator: the extension's view of a random-number
// generator of the core (2.13), as a value with shared state: copies share
// one AtenGeneratorHandle (no new reference in the core), and the last copy
// deletes it. Draws through any copy, or through any other handle of the
// same generator, advance them all. The deleter never throws.
//
// device() is declared here and defined in generator_inl.h, so that
// stableivalue_conversions.h can use this class while its members use the
// conversions; generator.h includes both.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/device_struct.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/macros/Macros.h>

#include <memory>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

class Generator {
 public:
  // Steals the handle (one owning reference).
  explicit Generator(AtenGeneratorHandle gen) : gen_(own(gen)) {}

  Generator(const Generator&) = default;
  Generator(Generator&&) noexcept = default;
  Generator& operator=(const Generator&) = default;
  Generator& operator=(Generator&&) noexcept = default;
  ~Generator() = default;

  // Borrowed handle, valid while this Generator (or a copy) lives.
  AtenGeneratorHandle get() const { return gen_.get(); }

  // The device the generator draws for (defined in generator_inl.h).
  Device device() const;

 private:
  static std::shared_ptr<AtenGeneratorOpaque> own(AtenGeneratorHandle handle) {
    // A failing delete (only a corrupted handle can cause one) is ignored,
    // never turned into an exception while a destructor runs.
    return std::shared_ptr<AtenGeneratorOpaque>(
        handle, [](AtenGeneratorHandle h) noexcept { (void)torch_delete_generator(h); });
  }

  std::shared_ptr<AtenGeneratorOpaque> gen_;
};

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

HIDDEN_NAMESPACE_END(torch, stable)
