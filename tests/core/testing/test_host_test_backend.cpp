// The host test backend end to end: factories on privateuseone devices,
// dispatch to the PrivateUse1 key, cross-device copies and to(device), the
// device checks of the CPU kernels it borrows, and its allocator counters.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/dispatch/library.h>
#include <st/testing/host_test_backend.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::Device;
using st::DeviceType;

const Device kDev0("privateuseone:0");
const Device kDev1("privateuseone:1");

class HostTestBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    st::testing::register_host_test_backend();
    for (int d = 0; d < 2; ++d) {
      live_[d] =
          st::testing::host_test_allocator_stats(static_cast<st::DeviceIndex>(d)).live_allocations;
    }
  }
  void TearDown() override {
    for (int d = 0; d < 2; ++d) {
      EXPECT_EQ(
          st::testing::host_test_allocator_stats(static_cast<st::DeviceIndex>(d)).live_allocations,
          live_[d])
          << "allocations leaked on privateuseone:" << d;
    }
    EXPECT_EQ(st::get_device_runtime(DeviceType::PrivateUse1).current_device(), 0);
  }
  int64_t live_[2] = {0, 0};
};

TEST_F(HostTestBackendTest, FactoriesAllocateOnTheRequestedDevice) {
  const auto before = st::testing::host_test_allocator_stats(1);
  Tensor t = st::empty({3, 4}, ScalarType::Float, std::nullopt, kDev1);
  EXPECT_EQ(t.device(), kDev1);
  const auto after = st::testing::host_test_allocator_stats(1);
  EXPECT_EQ(after.live_allocations, before.live_allocations + 1);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use + 48);
  // No index: the current device.
  {
    st::DeviceGuard g(kDev1);
    EXPECT_EQ(st::empty({2}, std::nullopt, std::nullopt, Device("privateuseone")).device(), kDev1);
  }
  EXPECT_EQ(st::empty({2}, std::nullopt, std::nullopt, Device("privateuseone")).device(), kDev0);
  Tensor f = st::full({2, 2}, 7, ScalarType::Int, std::nullopt, kDev0);
  EXPECT_EQ(f.device(), kDev0);
  EXPECT_EQ(values(st::to(f, Device("cpu"), ScalarType::Int)), (std::vector<double>{7, 7, 7, 7}));
  Tensor r = st::arange(5, ScalarType::Long, std::nullopt, kDev1);
  EXPECT_EQ(r.device(), kDev1);
  EXPECT_EQ(values(st::to(r, Device("cpu"), ScalarType::Long)),
            (std::vector<double>{0, 1, 2, 3, 4}));
}

TEST_F(HostTestBackendTest, FactoryErrorsNameTheDevice) {
  EXPECT_NATIVE_ERROR(
      st::empty({2}, std::nullopt, std::nullopt, Device("privateuseone:2")),
      "aten::empty: device index 2 is out of range for device type privateuseone (2 "
      "devices available");
}

TEST_F(HostTestBackendTest, CopiesAcrossDevicesKeepValues) {
  Tensor cpu = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor d0 = st::to(cpu, std::nullopt, std::nullopt, kDev0);
  EXPECT_EQ(d0.device(), kDev0);
  EXPECT_NE(d0.data_ptr(), cpu.data_ptr());
  Tensor d1 = st::to(d0, std::nullopt, std::nullopt, kDev1);
  EXPECT_EQ(d1.device(), kDev1);
  Tensor back = st::to(d1, std::nullopt, std::nullopt, Device("cpu"));
  EXPECT_TRUE(back.is_cpu());
  EXPECT_EQ(values(back), values(cpu));
  // to() the same device is the tensor itself; copy=true copies.
  EXPECT_TRUE(st::to(d1, std::nullopt, std::nullopt, kDev1).is_same(d1));
  EXPECT_TRUE(st::to(d1, std::nullopt, std::nullopt, Device("privateuseone")).is_same(d1));
  EXPECT_FALSE(
      st::to(d1, std::nullopt, std::nullopt, kDev1, std::nullopt, false, true).is_same(d1));
}

TEST_F(HostTestBackendTest, CopyConvertsDtypeAndHandlesStrides) {
  Tensor cpu = make({1, 2, 3, 4, 5, 6}, {2, 3});
  // Device change and dtype change together.
  Tensor d0 = st::to(cpu, kDev0, ScalarType::Double);
  EXPECT_EQ(d0.dtype(), ScalarType::Double);
  // A non-contiguous source on one device into a destination on another.
  Tensor tr = st::transpose(d0, 0, 1);
  ASSERT_FALSE(tr.is_contiguous());
  Tensor dst = st::empty({3, 2}, ScalarType::Int, std::nullopt, kDev1);
  st::copy_(dst, tr);
  EXPECT_EQ(values(st::to(dst, Device("cpu"), ScalarType::Int)),
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
  // Device to host into a non-contiguous CPU destination.
  Tensor host = st::transpose(st::empty({2, 3}, ScalarType::Float), 0, 1);
  st::copy_(host, dst);
  EXPECT_EQ(values(host), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST_F(HostTestBackendTest, PointwiseAndReductionsRunOnTheDevice) {
  Tensor a = st::to(make1({1, 2, 3}), std::nullopt, std::nullopt, kDev1);
  Tensor b = st::to(make1({10, 20, 30}), std::nullopt, std::nullopt, kDev1);
  Tensor c = st::add(a, b, 2);
  EXPECT_EQ(c.device(), kDev1);
  EXPECT_EQ(values(st::to(c, std::nullopt, std::nullopt, Device("cpu"))),
            (std::vector<double>{21, 42, 63}));
  // A 0-dim CPU tensor mixes with device tensors, as in PyTorch.
  Tensor scaled = st::mul(a, st::full({}, 3));
  EXPECT_EQ(scaled.device(), kDev1);
  Tensor s = st::sum(c);
  EXPECT_EQ(s.device(), kDev1);
  EXPECT_EQ(values(st::to(s, std::nullopt, std::nullopt, Device("cpu"))),
            (std::vector<double>{126}));
  Tensor m = st::mean(b);
  EXPECT_EQ(values(st::to(m, std::nullopt, std::nullopt, Device("cpu"))),
            (std::vector<double>{20}));
  st::zero_(a);
  EXPECT_EQ(values(st::to(a, std::nullopt, std::nullopt, Device("cpu"))),
            (std::vector<double>{0, 0, 0}));
}

TEST_F(HostTestBackendTest, MixingDevicesIsAClearError) {
  Tensor a = st::ones({3}, std::nullopt, std::nullopt, kDev0);
  Tensor b = st::ones({3}, std::nullopt, std::nullopt, kDev1);
  EXPECT_NATIVE_ERROR(st::add(a, b),
                      "add: expected all tensors to be on the same device, but found at least two "
                      "devices, privateuseone:0 and privateuseone:1");
  EXPECT_NATIVE_ERROR(st::add(a, st::ones({3})), "privateuseone:0 and cpu");
  Tensor out = st::empty({3}, std::nullopt, std::nullopt, kDev1);
  EXPECT_NATIVE_ERROR(st::add_out(out, a, a),
                      "expected the output on privateuseone:0 but got "
                      "privateuseone:1");
}

// The shape, indexing, linear-algebra, sorting and softmax kernels read data
// pointers directly (no elementwise engine): they too run on any host
// memory, allocate their results on their operands' device, and refuse
// operands on two devices.
Tensor on(const Tensor& t, Device d) { return st::to(t, std::nullopt, std::nullopt, d); }
std::vector<double> host_values(const Tensor& t) { return values(on(t, Device("cpu"))); }

TEST_F(HostTestBackendTest, ShapeIndexingAndLinearAlgebraRunOnTheDevice) {
  Tensor a = on(make({1, 2, 3, 4}, {2, 2}), kDev1);
  Tensor b = on(make({5, 6, 7, 8}, {2, 2}), kDev1);

  Tensor c = st::cat({a, b}, 0);
  EXPECT_EQ(c.device(), kDev1);
  EXPECT_EQ(host_values(c), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));

  Tensor idx = on(make1({1, 0}, ScalarType::Long), kDev1);
  Tensor sel = st::index_select(a, 0, idx);
  EXPECT_EQ(sel.device(), kDev1);
  EXPECT_EQ(host_values(sel), (std::vector<double>{3, 4, 1, 2}));

  Tensor nz = st::nonzero(on(make1({0, 3, 0, 5}), kDev1));
  EXPECT_EQ(nz.device(), kDev1);
  EXPECT_EQ(host_values(nz), (std::vector<double>{1, 3}));

  Tensor p = st::mm(a, b);
  EXPECT_EQ(p.device(), kDev1);
  EXPECT_EQ(host_values(p), (std::vector<double>{19, 22, 43, 50}));
  EXPECT_EQ(host_values(st::addmm(a, a, b)), (std::vector<double>{20, 24, 46, 54}));
  EXPECT_EQ(host_values(st::bmm(st::unsqueeze(a, 0), st::unsqueeze(b, 0))),
            (std::vector<double>{19, 22, 43, 50}));
  Tensor v = on(make1({1, 2}), kDev1);
  EXPECT_EQ(host_values(st::dot(v, v)), (std::vector<double>{5}));

  auto [sorted, order] = st::sort(on(make1({3, 1, 2}), kDev1));
  EXPECT_EQ(sorted.device(), kDev1);
  EXPECT_EQ(order.device(), kDev1);
  EXPECT_EQ(host_values(sorted), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(host_values(order), (std::vector<double>{1, 2, 0}));

  Tensor sm = st::softmax(on(make1({0, 0}), kDev1), 0);
  EXPECT_EQ(sm.device(), kDev1);
  EXPECT_EQ(host_values(sm), (std::vector<double>{0.5, 0.5}));
}

TEST_F(HostTestBackendTest, KernelsRefuseOperandsOnTwoDevices) {
  Tensor a0 = st::ones({2, 2}, std::nullopt, std::nullopt, kDev0);
  Tensor a1 = st::ones({2, 2}, std::nullopt, std::nullopt, kDev1);
  EXPECT_NATIVE_ERROR(st::mm(a0, a1),
                      "mm: expected mat2 on device privateuseone:0 like the "
                      "other operands, got device privateuseone:1");
  EXPECT_NATIVE_ERROR(st::cat({a0, st::ones({2, 2})}, 0),
                      "expected tensors[1] on device privateuseone:0 like the other operands, "
                      "got device cpu");
  EXPECT_NATIVE_ERROR(st::index_select(a0, 0, st::zeros({1}, ScalarType::Long)),
                      "index_select(): expected index on device privateuseone:0");
}

// Operators registered for this test: `which` reports the kernel that ran,
// `where` the device current inside the kernel.
int64_t which_cpu(const Tensor&) { return 1; }
int64_t which_pu1(const Tensor&) { return 2; }
int64_t where_cpu(const Tensor&) {
  return st::get_device_runtime(DeviceType::PrivateUse1).current_device();
}

TEST_F(HostTestBackendTest, DispatchPrefersAPrivateUse1Kernel) {
  st::Library def(st::Library::DEF, "hostbackend_test", std::nullopt, __FILE__, __LINE__);
  def.def("which(Tensor self) -> int");
  def.def("where(Tensor self) -> int");
  st::Library cpu(st::Library::IMPL, "hostbackend_test", st::DispatchKey::CPU, __FILE__, __LINE__);
  cpu.impl("which", ST_FN(which_cpu));
  cpu.impl("where", ST_FN(where_cpu));
  st::Library pu1(st::Library::IMPL, "hostbackend_test", st::DispatchKey::PrivateUse1, __FILE__,
                  __LINE__);
  pu1.impl("which", ST_FN(which_pu1));
  auto which = st::Dispatcher::singleton()
                   .findSchemaOrThrow("hostbackend_test::which", "")
                   .typed<int64_t(const Tensor&)>();
  auto where = st::Dispatcher::singleton()
                   .findSchemaOrThrow("hostbackend_test::where", "")
                   .typed<int64_t(const Tensor&)>();
  Tensor on1 = st::empty({1}, std::nullopt, std::nullopt, kDev1);
  EXPECT_EQ(which.call(st::empty({1})), 1);
  EXPECT_EQ(which.call(on1), 2);
  // No PrivateUse1 kernel: the fallback makes the tensor's device current
  // and runs the CPU kernel.
  EXPECT_EQ(where.call(on1), 1);
  EXPECT_EQ(where.call(st::empty({1}, std::nullopt, std::nullopt, kDev0)), 0);
  EXPECT_EQ(st::get_device_runtime(DeviceType::PrivateUse1).current_device(), 0);
}

}  // namespace
