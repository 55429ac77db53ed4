#include <st/native/arange_length.h>

#include <cmath>
#include <string>

#include <st/core/error.h>

namespace st::native {

namespace {

[[noreturn]] void throw_too_long(const Scalar& start, const Scalar& end, const Scalar& step,
                                 const char* length) {
  ST_ERROR("arange: the number of elements of the range from ", start, " to ", end, " by step ",
           step, " (", length, ") does not fit int64");
}

}  // namespace

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step,
                      torch::headeronly::ScalarType dtype) {
  const double xstart = start.toComplexDouble().real();
  const double xend = end.toComplexDouble().real();
  const double xstep = step.toComplexDouble().real();
  ST_CHECK(xstep > 0 || xstep < 0, "step must be nonzero");
  ST_CHECK(std::isfinite(xstart) && std::isfinite(xend), "unsupported range: ", xstart, " -> ",
           xend);
  if (torch::headeronly::isIntegralType(dtype, false) && start.isIntegral(true) &&
      end.isIntegral(true) && step.isIntegral(true)) {
    // In uint64, where end - start and |step| are exact for any int64s.
    const int64_t s = start.toLong(), e = end.toLong(), st = step.toLong();
    ST_CHECK((st > 0 && e >= s) || (st < 0 && e <= s),
             "upper bound and larger bound inconsistent with step sign");
    const uint64_t distance = st > 0 ? static_cast<uint64_t>(e) - static_cast<uint64_t>(s)
                                     : static_cast<uint64_t>(s) - static_cast<uint64_t>(e);
    const uint64_t stride = st > 0 ? static_cast<uint64_t>(st) : 0 - static_cast<uint64_t>(st);
    const uint64_t length = distance == 0 ? 0 : (distance - 1) / stride + 1;
    if (length > static_cast<uint64_t>(INT64_MAX)) {
      throw_too_long(start, end, step, std::to_string(length).c_str());
    }
    return static_cast<int64_t>(length);
  }
  ST_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
           "upper bound and larger bound inconsistent with step sign");
  const double length = std::ceil((xend - xstart) / xstep);
  // 2^63 is the first double past INT64_MAX; converting it (or inf) to
  // int64 is undefined, so the bound is strict and checked before the cast.
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!(length < kTwoTo63)) {
    throw_too_long(start, end, step, std::to_string(length).c_str());
  }
  return static_cast<int64_t>(length);
}

}  // namespace st::native
