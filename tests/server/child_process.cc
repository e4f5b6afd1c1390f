#include "tests/server/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

namespace ensemble::testing {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kReapPoll{20};
constexpr int kReadPollMs = 100;

}  // namespace

std::string ReadFirstLine(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto deadline = Clock::now() + timeout;
  while (out.find('\n') == std::string::npos && Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, kReadPollMs) <= 0) continue;
    char buf[256];
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

void StopChild(pid_t pid, std::chrono::milliseconds timeout) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  const auto deadline = Clock::now() + timeout;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return;
    }
    std::this_thread::sleep_for(kReapPoll);
  }
}

}  // namespace ensemble::testing
