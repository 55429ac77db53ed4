#include <st/core/tensor_impl.h>

#include <algorithm>
#include <array>
#include <vector>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/wrap_dim.h>

#include "tensor_storage_block.h"

namespace st {
namespace {

std::atomic<int64_t> g_live_tensor_impls{0};

size_t checked_itemsize(ScalarType dtype) {
  const int v = static_cast<int>(dtype);
  ST_CHECK(v >= 0 && dtype != ScalarType::Undefined && v < static_cast<int>(ScalarType::NumOptions),
           "TensorImpl: expected a concrete dtype, got ", torch::headeronly::toString(dtype));
  return torch::headeronly::elementSize(dtype);
}

template <size_t N>
bool channels_last_like(IntArrayRef sizes, IntArrayRef strides, const std::array<int, N>& order) {
  int64_t expected = 1;
  for (int d : order) {
    const int64_t size_d = sizes[static_cast<size_t>(d)];
    if (size_d != 1) {
      if (strides[static_cast<size_t>(d)] != expected) {
        return false;
      }
      expected *= size_d;
    }
  }
  return true;
}

bool compute_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  const size_t n = sizes.size();
  if (n == 1) {
    return sizes[0] < 2 || strides[0] == 1;
  }
  std::array<int64_t, 16> small_perm{};
  std::vector<int64_t> big_perm;
  int64_t* perm = small_perm.data();
  if (n > small_perm.size()) {
    big_perm.resize(n);
    perm = big_perm.data();
  }
  for (size_t i = 0; i < n; ++i) {
    perm[i] = static_cast<int64_t>(i);
  }
  // Size-0/1 dims last; the rest by increasing stride.
  std::stable_sort(perm, perm + n, [&](int64_t a, int64_t b) {
    const bool a_small = sizes[static_cast<size_t>(a)] < 2;
    const bool b_small = sizes[static_cast<size_t>(b)] < 2;
    if (a_small != b_small) {
      return b_small;
    }
    if (a_small) {
      return false;
    }
    return strides[static_cast<size_t>(a)] < strides[static_cast<size_t>(b)];
  });
  int64_t required = 1;
  for (size_t i = 0; i < n; ++i) {
    const int64_t size = sizes[static_cast<size_t>(perm[i])];
    if (size < 2) {
      return true;
    }
    if (strides[static_cast<size_t>(perm[i])] != required) {
      return false;
    }
    required *= size;
  }
  return true;
}

}  // namespace

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : storage_(std::move(storage)),
      itemsize_(checked_itemsize(dtype)),
      dtype_(dtype),
      // A CPU tensor's device is plain "cpu" whatever index it was made
      // with (cpu:0 included), as PyTorch's CPU allocator gives: CPU
      // tensors' devices always compare equal.
      device_(device.is_cpu() ? Device(DeviceType::CPU) : device) {
  g_live_tensor_impls.fetch_add(1, std::memory_order_relaxed);
}

TensorImpl::~TensorImpl() { g_live_tensor_impls.fetch_sub(1, std::memory_order_relaxed); }

// Note [Tensor and storage in one block]
// A factory's tensor and its new storage are born together and, unless a
// view is taken, die together: one allocation holds both (StorageImpl,
// then TensorImpl, then a count of the parts still alive, initially 2),
// saving a malloc and a free per tensor. Each part keeps its own intrusive
// count and ends on its own: a view can keep the storage after the tensor
// is gone, and set_storage can drop the storage before the tensor. An
// ended part runs its destructor in place and decrements the parts count;
// the last frees the block (TensorStorageBlock::part_ended). So a storage
// that outlives its tensor keeps the tensor's bytes (a few hundred) until
// it ends too. When a tensor ends holding the only reference to its own
// block's storage, nobody else can reach either part, and the storage's
// end frees the block with no atomic read-modify-write.
//
// Note [Small data in the block]
// The data of a small tensor (up to kSmallDataBytes, 64: any one-element
// tensor, 16 floats) from the built-in CPU allocator goes in the block as
// well, a third part: one malloc and one free per small tensor instead of
// two, about 150 of the 1,100 instructions of an empty({1}) and its
// delete. The data keeps the CPU allocator's alignment and counters. The
// storage owns it through a DataPtr whose deleter ends the data part, so
// the bytes stay valid while any DataPtr to them lives, even one moved out
// of the storage, and resizing the storage moves the data to the allocator
// as for any other. A storage given another allocator (set_allocator)
// never gets small data: that allocator sees every allocation.
intrusive_ptr<TensorImpl> TensorImpl::make_with_storage(size_t nbytes, Allocator* allocator,
                                                        ScalarType dtype, Device device) {
  using Block = detail::TensorStorageBlock;
  // Every check that can fail comes before the block is shared by two
  // parts: past the storage, nothing throws.
  checked_itemsize(dtype);
  const bool small_data =
      nbytes > 0 && nbytes <= Block::kSmallDataBytes && detail::is_builtin_cpu_allocator(allocator);
  char* block =
      static_cast<char*>(::operator new(small_data ? Block::kSizeWithData : Block::kSize));
  intrusive_ptr<StorageImpl> storage;
  if (small_data) {
    new (block + Block::kParts) std::atomic<int>(3);
    storage = intrusive_ptr<StorageImpl>::make_at(block + Block::kStorage,
                                                  detail::SmallDataBlock{block}, nbytes, allocator);
  } else {
    try {
      storage = intrusive_ptr<StorageImpl>::make_at(block + Block::kStorage, nbytes, allocator);
    } catch (...) {
      ::operator delete(block);
      throw;
    }
    new (block + Block::kParts) std::atomic<int>(2);
  }
  storage->in_block_ = true;
  auto impl = intrusive_ptr<TensorImpl>::make_at(block + Block::kTensor,
                                                 Storage(std::move(storage)), dtype, device);
  impl->in_block_ = true;
  impl->data_in_block_ = small_data;
  return impl;
}

void TensorImpl::destroy_self() noexcept {
  if (!in_block_) {
    delete this;
    return;
  }
  using Block = detail::TensorStorageBlock;
  char* block = reinterpret_cast<char*>(this) - Block::kTensor;
  auto* own = std::launder(reinterpret_cast<StorageImpl*>(block + Block::kStorage));
  Storage storage = std::move(storage_);
  const bool sole_owner = storage.unsafeGetStorageImpl() == own && own->use_count() == 1;
  // Parts left once this one ends, if nobody else can reach them: the
  // storage, and the small data while that storage holds it. Small data
  // moved out of the storage may end on another thread: then the count is
  // decremented as for a shared storage.
  const int left = !sole_owner                            ? 0
                   : !data_in_block_                      ? 1
                   : Block::holds_small_data(*own, block) ? 2
                                                          : 0;
  this->~TensorImpl();
  if (left > 0) {
    // The storage's end (just below) ends the block's last parts.
    Block::parts(block).store(left, std::memory_order_relaxed);
    storage = Storage();
    return;
  }
  storage = Storage();
  Block::part_ended(block);
}

int64_t TensorImpl::live_count() noexcept {
  return g_live_tensor_impls.load(std::memory_order_relaxed);
}

int64_t live_tensor_count() noexcept { return TensorImpl::live_count(); }

int64_t TensorImpl::size(int64_t d) const {
  return sizes()[static_cast<size_t>(maybe_wrap_dim(d, dim(), false))];
}

int64_t TensorImpl::stride(int64_t d) const {
  return strides()[static_cast<size_t>(maybe_wrap_dim(d, dim(), false))];
}

void TensorImpl::set_wrapped_number(bool value) {
  ST_CHECK(!value || dim() == 0,
           "set_wrapped_number: only a 0-dim tensor can be a wrapped number, "
           "got a ",
           dim(), "-dim tensor");
  is_wrapped_number_ = value;
}

void TensorImpl::refresh_contiguous() noexcept {
  const IntArrayRef sz = sizes();
  const IntArrayRef st = strides();
  bool contiguous = true;
  if (numel_ != 0) {
    int64_t expected = 1;
    for (size_t i = sz.size(); i-- > 0;) {
      if (sz[i] != 1) {
        if (st[i] != expected) {
          contiguous = false;
          break;
        }
        expected *= sz[i];
      }
    }
  }
  is_contiguous_ = contiguous;
  const size_t n = sz.size();
  is_channels_last_contiguous_ =
      n == 4 && channels_last_like(sz, st, std::array<int, 4>{1, 3, 2, 0});
  is_channels_last_3d_contiguous_ =
      n == 5 && channels_last_like(sz, st, std::array<int, 5>{1, 4, 3, 2, 0});
  is_non_overlapping_and_dense_ = contiguous || is_channels_last_contiguous_ ||
                                  is_channels_last_3d_contiguous_ ||
                                  compute_non_overlapping_and_dense(sz, st);
}

bool TensorImpl::is_contiguous_slow(MemoryFormat format) const {
  switch (format) {
    case MemoryFormat::Contiguous:
      return is_contiguous_;
    case MemoryFormat::ChannelsLast:
      return is_channels_last_contiguous_;
    case MemoryFormat::ChannelsLast3d:
      return is_channels_last_3d_contiguous_;
    default:
      ST_ERROR(
          "is_contiguous: expected memory format Contiguous, "
          "ChannelsLast or ChannelsLast3d, got ",
          format);
  }
}

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  // Validate first so a failure leaves the tensor unchanged.
  const int64_t numel = checked_numel(sizes, "set_sizes_contiguous");
  if (numel == 0) {
    // Only an empty tensor's strides can overflow: check them on the side.
    std::vector<int64_t> scratch(sizes.size());
    detail::contiguous_strides(sizes, scratch.data());
  }
  sizes_and_strides_.resize(sizes.size());
  int64_t* sz = sizes_and_strides_.sizes_data();
  for (size_t i = 0; i < sizes.size(); ++i) {
    sz[i] = sizes[i];
  }
  numel_ = numel;
  detail::contiguous_strides(sizes, sizes_and_strides_.strides_data());
  refresh_contiguous();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides) {
  ST_CHECK(sizes.size() == strides.size(), "set_sizes_and_strides: dimensionality of sizes (",
           sizes.size(), ") must match dimensionality of strides (", strides.size(), ")");
  // Validate first so a failure leaves the tensor unchanged.
  const int64_t n = checked_numel(sizes, "set_sizes_and_strides");
  sizes_and_strides_.set(sizes, strides);
  numel_ = n;
  refresh_contiguous();
}

void TensorImpl::set_validated_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                                 int64_t numel) {
  // A plain loop: a factory's few dimensions cost less than two memcpy calls.
  const size_t n = sizes.size();
  sizes_and_strides_.resize(n);
  int64_t* sz = sizes_and_strides_.sizes_data();
  int64_t* sd = sizes_and_strides_.strides_data();
  for (size_t i = 0; i < n; ++i) {
    sz[i] = sizes[i];
    sd[i] = strides[i];
  }
  numel_ = numel;
  refresh_contiguous();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                       int64_t storage_offset) {
  ST_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  set_sizes_and_strides(sizes, strides);
  storage_offset_ = storage_offset;
}

void TensorImpl::set_storage_offset(int64_t storage_offset) {
  ST_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  storage_offset_ = storage_offset;
}

void TensorImpl::set_storage(Storage storage) { storage_ = std::move(storage); }

void TensorImpl::set_dtype(ScalarType dtype) {
  itemsize_ = checked_itemsize(dtype);
  dtype_ = dtype;
}

}  // namespace st
