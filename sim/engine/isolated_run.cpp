#include "sim/engine/isolated_run.h"

#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/error.h"

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
}  // namespace

std::string run_isolated(const std::function<std::string()>& work) {
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork() failed");
  if (pid == 0) {
    ::close(fds[0]);
    int code = 0;
    std::string out;
    try {
      out = std::string(1, 'O').append(work());
    } catch (const UserError& e) {
      out = std::string(1, 'E').append(std::to_string(int(e.code()))).append(" ").append(e.what());
    } catch (const std::exception& e) {
      out = std::string(1, 'X').append(e.what());
    }
    write_all(fds[1], out);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(code);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, std::size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (text.empty()) throw std::runtime_error("simulation child process died (status " + std::to_string(status) + ")");
  if (text[0] == 'O') return text.substr(1);
  if (text[0] == 'E') {
    auto space = text.find(' ');
    throw UserError(ExitCode(std::stoi(text.substr(1, space - 1))), text.substr(space + 1));
  }
  throw std::runtime_error("simulation child: " + text.substr(1));
}

}  // namespace hwsim
