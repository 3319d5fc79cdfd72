#include "app/sweep/process_pool.h"

#include "app/progress.h"
#include "sim/engine/isolated_run.h"
#include "sim/memory_budget.h"

#include <algorithm>

#include <cstdio>
#include <poll.h>
#include <sched.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace hwsim {

namespace {
struct Child {
  std::size_t task = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string text;
};

// `at_once`: the children running at once, which share the host memory limit (sim/memory_budget.h),
// so --jobs N does not multiply --max-memory by N.
Child start(std::size_t task, const std::function<std::string(std::size_t)>& work, int at_once) {
  // The parent draws the only bar.
  IsolatedChild c = start_isolated([&work, task]() { return work(task); }, [at_once]() {
    ProgressBar::silence_process();
    share_memory_limit(at_once);
  });
  return Child{task, c.pid, c.fd, {}};
}

TaskOutcome outcome_of(const Child& c, int status) {
  IsolatedOutcome o = isolated_outcome(c.text, status);
  if (!o.ok && !o.crashed && o.code == ExitCode::internal) o.text = "internal error: " + o.text;
  return {o.ok, o.text, o.code};
}
}  // namespace

int available_cores() {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? int(n) : 1;
}

int pool_jobs(int requested) {
  const int cores = available_cores();
  return requested > 0 ? std::min(requested, cores) : cores;
}

void run_in_pool(const std::vector<std::size_t>& tasks, int jobs,
                 const std::function<std::string(std::size_t)>& work,
                 const std::function<void(std::size_t, const TaskOutcome&)>& done) {
  std::vector<Child> running;
  std::size_t next = 0;
  const int at_once = int(std::min(tasks.size(), std::size_t(std::max(jobs, 1))));
  char buffer[65536];
  while (next < tasks.size() || !running.empty()) {
    while (next < tasks.size() && running.size() < std::size_t(std::max(jobs, 1))) running.push_back(start(tasks[next++], work, at_once));
    std::vector<pollfd> fds;
    for (const auto& c : running) fds.push_back({c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) continue;  // EINTR: poll again
    for (std::size_t i = fds.size(); i-- > 0;) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Child& c = running[i];
      ssize_t n = ::read(c.fd, buffer, sizeof buffer);
      if (n > 0) {
        c.text.append(buffer, std::size_t(n));
        continue;
      }
      ::close(c.fd);
      int status = 0;
      ::waitpid(c.pid, &status, 0);
      Child finished = std::move(c);
      running.erase(running.begin() + std::ptrdiff_t(i));
      done(finished.task, outcome_of(finished, status));
    }
  }
}

}  // namespace hwsim
