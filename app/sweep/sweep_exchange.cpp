#include "app/sweep/sweep_exchange.h"

#include <cstdio>
#include <fmt/format.h>
#include <iostream>

#include "app/cli/output_file.h"
#include "app/sweep/sweep_mpi.h"
#include "sim/error.h"

namespace hwsim {

SweepSink::SweepSink(const SweepOptions& options, SweepFormat format, const std::vector<std::string>& columns,
                     std::map<std::size_t, std::string> done, std::size_t points)
    : options_(options), format_(format), columns_(columns), done_(std::move(done)), points_(points) {
  next_ = std::size_t(options.rank);
  while (next_ < points_ && done_.count(next_)) next_ += std::size_t(options.ranks);
  if (options.ranks > 1) stream_path_ = fmt::format("{}.part{}", options.out, options.rank);
  else if (options.out != "-") stream_path_ = options.out;
  if (stream_path_.empty()) {
    std::cout << sweep_header(format_, columns_);
    return;
  }
  if (options.ranks == 1 && !done_.empty()) write_merged(done_);  // drops a half-written last line
  file_.open(stream_path_, options.ranks == 1 && !done_.empty() ? std::ios::app : std::ios::trunc);
  if (!file_) io_error(fmt::format("{}: cannot write output file", stream_path_));
  if (options.ranks > 1 || done_.empty()) file_ << sweep_header(format_, columns_) << std::flush;
}

void SweepSink::write(const std::string& line) {
  if (stream_path_.empty()) {
    std::cout << line << std::flush;
    return;
  }
  file_ << line << std::flush;
  if (!file_) io_error(fmt::format("{}: write failed", stream_path_));
}

void SweepSink::add(std::size_t index, std::string line) {
  pending_[index] = std::move(line);
  const auto step = std::size_t(options_.ranks);
  while (pending_.count(next_)) {
    write(pending_[next_]);
    mine_[next_] = std::move(pending_[next_]);
    pending_.erase(next_);
    do next_ += step; while (next_ < points_ && done_.count(next_));
  }
}

void SweepSink::write_merged(const std::map<std::size_t, std::string>& rows) {
  std::string text = sweep_header(format_, columns_);
  for (const auto& [index, line] : rows) text += line;
  write_output(options_.out, text);
}

std::size_t SweepSink::finish(std::size_t failed_here) {
  if (file_.is_open()) file_.close();
  if (options_.ranks > 1) {
    std::size_t failed_elsewhere = 0;
    std::map<std::size_t, std::string> all = gather_sweep_rows(mine_, failed_here, failed_elsewhere);
    if (options_.rank == 0) {
      all.insert(done_.begin(), done_.end());
      write_merged(all);
    }
    std::remove(stream_path_.c_str());
    return failed_elsewhere;
  }
  if (!done_.empty() && !stream_path_.empty()) {
    std::map<std::size_t, std::string> all = done_;
    all.insert(mine_.begin(), mine_.end());
    write_merged(all);
  }
  return 0;
}

}  // namespace hwsim
