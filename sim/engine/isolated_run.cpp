#include "sim/engine/isolated_run.h"

#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace hwsim {

namespace {
void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += std::size_t(n);
  }
}

// In the child: runs `work` and reports "O<text>", "E<code> <line>" or "X<what>"; never returns.
[[noreturn]] void child_main(int fd, const std::function<std::string()>& work, const std::function<void()>& in_child) {
  std::string out;
  try {
    if (in_child) in_child();
    out = std::string(1, 'O').append(work());
  } catch (const UserError& e) {
    out = std::string(1, 'E').append(std::to_string(int(e.code()))).append(" ").append(e.what());
  } catch (const std::exception& e) {
    out = std::string(1, 'X').append(e.what());
  }
  write_all(fd, out);
  ::close(fd);
  std::fflush(nullptr);
  ::_exit(0);
}
}  // namespace

IsolatedChild start_isolated(const std::function<std::string()>& work, const std::function<void()>& in_child) {
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork() failed");
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], work, in_child);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

IsolatedOutcome isolated_outcome(const std::string& t, int status) {
  if (t.empty())
    return {false, "simulation child process died (status " + std::to_string(status) + ")", ExitCode::internal, true};
  if (t[0] == 'O') return {true, t.substr(1), ExitCode::ok};
  if (t[0] == 'E') {
    auto space = t.find(' ');
    return {false, t.substr(space + 1), ExitCode(std::stoi(t.substr(1, space - 1)))};
  }
  return {false, t.substr(1), ExitCode::internal};
}

std::string run_isolated(const std::function<std::string()>& work) {
  IsolatedChild child = start_isolated(work);
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = ::read(child.fd, buffer, sizeof buffer)) > 0;) text.append(buffer, std::size_t(n));
  ::close(child.fd);
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  IsolatedOutcome o = isolated_outcome(text, status);
  if (o.ok) return o.text;
  if (o.crashed) throw std::runtime_error(o.text);
  if (o.code != ExitCode::internal) throw UserError(o.code, o.text);
  throw std::runtime_error("simulation child: " + o.text);
}

}  // namespace hwsim
