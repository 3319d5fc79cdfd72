#pragma once
// SystemC cannot be reset, so each simulation point of a sweep or a validation runs in a child
// process (fork, no exec). The child runs `work` and sends back its text; a UserError in the child
// is re-thrown in the parent with the same code and line; a crash is an internal error.
#include <functional>
#include <string>
#include <sys/types.h>

#include "sim/error.h"

namespace hwsim {

// Runs `work` in a child now and waits for it.
std::string run_isolated(const std::function<std::string()>& work);

// The pieces, for callers that keep several children running (app/sweep/process_pool):
// start_isolated forks a child that runs `work` (after `in_child`, if given) and writes its
// outcome to the returned pipe, then exits; the parent reads the pipe to its end, waits for `pid`
// and decodes what it read with isolated_outcome.
struct IsolatedChild {
  pid_t pid = -1;
  int fd = -1;  // read end of the child's pipe
};
IsolatedChild start_isolated(const std::function<std::string()>& work, const std::function<void()>& in_child = {});

struct IsolatedOutcome {
  bool ok = false;
  std::string text;              // work's text when ok, else the error line
  ExitCode code = ExitCode::ok;  // of a UserError; internal for a crash or another exception
  bool crashed = false;          // the child died without reporting (status in text)
};
IsolatedOutcome isolated_outcome(const std::string& pipe_text, int wait_status);

}  // namespace hwsim
