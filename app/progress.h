#pragma once
// A progress bar on stderr — only when stderr is a terminal (isatty), silent otherwise, so logs
// and pipes never see it. Shows "label [####......] done/total unit  rate/s  ETA 1m05s", redrawn
// in place at most every 0.1 s; finish() clears the line.
#include <chrono>
#include <cstddef>
#include <string>

namespace hwsim {

class ProgressBar {
 public:
  ProgressBar(std::string label, std::size_t total, std::string unit);
  ~ProgressBar();
  void update(std::size_t done);  // `done` of `total` finished
  void finish();
  bool shown() const { return enabled_; }

  // No bar from this process on: a sweep's or validate's child process calls it, so that only the
  // parent's bar is drawn (a run's own step bar would garble it).
  static void silence_process();

  // The bar's text for a state, without terminal control characters (tested directly).
  static std::string render(const std::string& label, std::size_t done, std::size_t total, const std::string& unit,
                            double elapsed_seconds, int width = 30);

 private:
  std::string label_, unit_;
  std::size_t total_ = 0;
  bool enabled_ = false, drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// "1m05s", "42s", "2h03m": a duration for the bar.
std::string format_duration(double seconds);

}  // namespace hwsim
