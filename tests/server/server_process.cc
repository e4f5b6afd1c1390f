#include "tests/server/server_process.h"

#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "tests/server/child_process.h"
#include "tests/server/http_client.h"

extern char** environ;

namespace ensemble::testing {
core::Result<std::unique_ptr<ServerProcess>> ServerProcess::Start(
    const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    size_t eq = kv.find('=');
    if (eq != std::string::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  vars["ENSEMBLE_PORT"] = "0";
  vars["ENSEMBLE_HTTP_ADDR"] = "127.0.0.1";
  for (const auto& [k, v] : env) vars[k] = v;
  std::vector<std::string> strings;
  for (const auto& [k, v] : vars) strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return core::Status(core::codes::kInternal, "pipe failed");
  std::string bin = ENSEMBLE_SERVER_BIN;
  pid_t pid = fork();
  if (pid < 0) return core::Status(core::codes::kInternal, "fork failed");
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    char* argv[] = {bin.data(), nullptr};
    execve(bin.c_str(), argv, envp.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::unique_ptr<ServerProcess> process(new ServerProcess());
  process->pid_ = pid;
  process->stdout_fd_ = pipe_fds[0];

  // "ensemble_server listening on http://127.0.0.1:PORT (store: ...)"
  const std::string out = ReadFirstLine(process->stdout_fd_, kServerStartTimeout);
  const std::string marker = "http://127.0.0.1:";
  size_t at = out.find(marker);
  if (at == std::string::npos) {
    return core::Status(core::codes::kInternal, "the server did not start: '" + out + "'");
  }
  process->port_ = static_cast<uint16_t>(std::atoi(out.c_str() + at + marker.size()));
  return process;
}

void ServerProcess::Stop() {
  StopChild(pid_, kServerStopTimeout);
  pid_ = -1;
  if (stdout_fd_ >= 0) close(stdout_fd_);
  stdout_fd_ = -1;
}

ServerProcess::~ServerProcess() { Stop(); }

bool ServerProcess::WaitUntilListening(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    nlohmann::json health = HttpClient(port_).Get("/healthz").json();
    if (health.is_object() && health.value("pokes", "") == "listening") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace ensemble::testing
