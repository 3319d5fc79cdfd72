#pragma once
// An exact, order-independent sum of doubles: each term is rounded once, to the nearest multiple
// of 2^-kFractionBits, and the terms are added as 128-bit integers. The same terms in any order,
// or a term added `times` times at once, give the same sum to the last bit; a term added and
// later subtracted leaves no trace. The flow network keeps its per-resource sums this way, so a
// group of alike flows (one term × its member count) and the separate flows it stands for agree
// bit for bit whatever their order, and a sum is updated by the terms that change instead of
// being added up again.
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace hwsim {

// Terms up to 2^(126 - kFractionBits - kHeadroomBits) in magnitude, each taken up to
// 2^kHeadroomBits times at once; the sum as a whole stays below 2^(126 - kFractionBits) (the caller
// keeps it there: the flow network's sums are bounded by its flows in flight, or by the bytes of a
// run, far below).
template <int kFractionBits, int kHeadroomBits>
class ExactSum {
 public:
  using Quanta = __int128;
  static constexpr double pow2(int e) { return e >= 0 ? (e == 0 ? 1.0 : 2.0 * pow2(e - 1)) : 0.5 * pow2(e + 1); }
  static constexpr double kMaxTerm = pow2(126 - kFractionBits - kHeadroomBits);
  static constexpr std::uint64_t kMaxTimes = std::uint64_t(1) << kHeadroomBits;

  // `x` in units of 2^-kFractionBits, rounded to nearest (ties to even).
  static Quanta quanta(double x) {
    if (!(std::fabs(x) <= kMaxTerm))
      throw std::logic_error("ExactSum: a term out of range (or not a number): " + std::to_string(x) + " (at most " +
                             std::to_string(kMaxTerm) + ")");
    return to_integer(std::nearbyint(x * pow2(kFractionBits)));
  }
  void add(Quanta q, std::uint64_t times = 1) {
    if (times > kMaxTimes) throw std::logic_error("ExactSum: a term taken too many times at once");
    sum_ += times == 1 ? q : q * Quanta(times);
  }
  void add(double x, std::uint64_t times = 1) { add(quanta(x), times); }
  void add(const ExactSum& other) { sum_ += other.sum_; }
  void subtract(Quanta q, std::uint64_t times = 1) { sum_ -= times == 1 ? q : q * Quanta(times); }
  void clear() { sum_ = 0; }
  bool zero() const { return sum_ == 0; }
  bool above(Quanta q) const { return sum_ > q; }  // the sum exceeds q quanta
  // The sum, correctly rounded (the hardware's 64-bit conversion when it fits: the same double).
  double value() const {
    constexpr Quanta kInt64 = Quanta(1) << 62;
    double whole = sum_ > -kInt64 && sum_ < kInt64 ? double(std::int64_t(sum_)) : double(sum_);
    return whole * pow2(-kFractionBits);
  }

 private:
  // An integral double below 2^126 in magnitude, as an integer: from its bits (the compiler's
  // conversion is a library call).
  static Quanta to_integer(double y) {
    auto bits = std::bit_cast<std::uint64_t>(y);
    int exponent = int((bits >> 52) & 0x7ff) - 1075;  // y = mantissa × 2^exponent
    if (exponent < -53) return 0;                    // zero (subnormals do not occur: y is integral)
    auto mantissa = Quanta((bits & ((std::uint64_t(1) << 52) - 1)) | (std::uint64_t(1) << 52));
    Quanta magnitude = exponent >= 0 ? mantissa << exponent : mantissa >> -exponent;
    return bits >> 63 ? -magnitude : magnitude;
  }
  Quanta sum_ = 0;
};

}  // namespace hwsim
