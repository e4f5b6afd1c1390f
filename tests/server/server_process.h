// ServerProcess: the real ensemble_server binary (ENSEMBLE_SERVER_BIN, set by
// CMake) as a child process on a free port, for tests that need several
// server processes on one database. Stop() (or the destructor) sends SIGTERM
// and reaps it, with SIGKILL after a bounded wait.
//
// Thread-safety: none; use from the test thread.

#ifndef ENSEMBLE_TESTS_SERVER_SERVER_PROCESS_H_
#define ENSEMBLE_TESTS_SERVER_SERVER_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/base/status.h"

namespace ensemble::testing {

// How long a child may take to print its start-up line, and to exit.
inline constexpr std::chrono::seconds kServerStartTimeout{15};
inline constexpr std::chrono::seconds kServerStopTimeout{10};

class ServerProcess {
 public:
  ~ServerProcess();

  // Starts the binary with these variables added to the environment (and
  // ENSEMBLE_PORT=0, ENSEMBLE_HTTP_ADDR=127.0.0.1) and waits for its
  // start-up line, which names the port.
  static core::Result<std::unique_ptr<ServerProcess>> Start(
      const std::map<std::string, std::string>& env);

  uint16_t port() const { return port_; }
  // Waits (up to `timeout`) until the process LISTENs for PostgreSQL
  // notifications, as /healthz reports it; false if it never did.
  bool WaitUntilListening(std::chrono::milliseconds timeout = std::chrono::seconds(5)) const;
  void Stop();

 private:
  ServerProcess() = default;

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  uint16_t port_ = 0;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_SERVER_PROCESS_H_
