#include "app/progress.h"

#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace hwsim {

// How often the bar is redrawn at most: often enough to look alive, rarely enough to cost nothing.
constexpr double kRedrawSeconds = 0.1;

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  auto t = static_cast<long long>(std::llround(s));
  if (t < 60) return fmt::format("{}s", t);
  if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
}

std::string ProgressBar::render(const std::string& label, std::size_t done, std::size_t total, const std::string& unit,
                                double elapsed, int width) {
  double fraction = total ? double(done) / double(total) : 1.0;
  int filled = int(fraction * width);
  std::string bar = std::string(std::size_t(filled), '#') + std::string(std::size_t(width - filled), '.');
  double rate = elapsed > 0 ? double(done) / elapsed : 0;
  std::string eta = done && rate > 0 ? format_duration(double(total - done) / rate) : "?";
  return fmt::format("{} [{}] {}/{} {}  {:.1f}/s  ETA {}", label, bar, done, total, unit, rate, eta);
}

namespace {
bool silenced = false;
}  // namespace

void ProgressBar::silence_process() { silenced = true; }

ProgressBar::ProgressBar(std::string label, std::size_t total, std::string unit)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), enabled_(!silenced && ::isatty(2) == 1),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::size_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total_ && std::chrono::duration<double>(now - last_).count() < kRedrawSeconds) return;
  last_ = now;
  drawn_ = true;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r\033[K%s", render(label_, done, total_, unit_, elapsed).c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace hwsim
