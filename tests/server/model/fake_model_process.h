// FakeModelProcess: tools/fake-model/fake_model.mjs under Node as a child
// process on a free loopback port, serving a scenario given as JSON. Its
// stdin is a pipe this object holds, so the child exits with the test even
// if the test dies; Stop() (or the destructor) also sends SIGTERM and reaps
// it.
//
// Thread-safety: none; use from the test thread.

#ifndef ENSEMBLE_TESTS_SERVER_MODEL_FAKE_MODEL_PROCESS_H_
#define ENSEMBLE_TESTS_SERVER_MODEL_FAKE_MODEL_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace ensemble::testing {

inline constexpr std::chrono::seconds kFakeModelStartTimeout{15};
inline constexpr std::chrono::seconds kFakeModelStopTimeout{5};

class FakeModelProcess {
 public:
  ~FakeModelProcess();

  // Writes `scenario` to a temporary file, starts the fake on it (with
  // `extra_args`, such as --tls-cert) and waits for its {"port": N} line.
  static core::Result<std::unique_ptr<FakeModelProcess>> Start(
      const nlohmann::json& scenario, const std::vector<std::string>& extra_args = {});

  uint16_t port() const { return port_; }
  // "http://127.0.0.1:<port>/v1"
  std::string base_url() const;
  // What the fake recorded (GET /__requests): an array of requests.
  nlohmann::json Requests() const;
  // Closes the fake's idle keep-alive connections (POST /__close-idle).
  void CloseIdleConnections() const;
  void Stop();

 private:
  FakeModelProcess() = default;

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  uint16_t port_ = 0;
  uint16_t control_port_ = 0;  // Plain HTTP for /__requests (differs under TLS).
  std::string scenario_path_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_MODEL_FAKE_MODEL_PROCESS_H_
