#pragma once
// Runs tasks in forked child processes, at most `jobs` at a time (SystemC allows one simulation
// per process; a fork inherits whatever the parent built once: configs, workloads). A child runs
// `work(task)` and sends its text back through a pipe; a UserError or any other exception in the
// child, or a child that dies, becomes a failed outcome with one line — never fatal to the pool.
// `done` is called in the parent, in completion order (not task order), once per task. The host
// memory limit (--max-memory) is shared: each of the children running at once may take the
// limit divided by their number, so N jobs together stay within it.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/error.h"

namespace hwsim {

struct TaskOutcome {
  bool ok = false;
  std::string text;  // work's text when ok, else the error line
  ExitCode code = ExitCode::ok;  // of a UserError; internal for a crash or another exception
};

void run_in_pool(const std::vector<std::size_t>& tasks, int jobs,
                 const std::function<std::string(std::size_t)>& work,
                 const std::function<void(std::size_t, const TaskOutcome&)>& done);

// The cores this process may use (at least 1): the default for --jobs.
int available_cores();

// The processes to run at once for --jobs `requested` (0: every core): never more than the cores.
// A simulation is CPU-bound, so one more than the cores only adds its memory (and divides
// --max-memory further) without finishing sooner.
int pool_jobs(int requested);

}  // namespace hwsim
