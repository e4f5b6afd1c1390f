#include "tests/server/model/fake_model_process.h"

#include <unistd.h>

#include <cstdlib>

#include "tests/server/child_process.h"
#include "tests/server/http_client.h"

namespace ensemble::testing {
core::Result<std::unique_ptr<FakeModelProcess>> FakeModelProcess::Start(
    const nlohmann::json& scenario, const std::vector<std::string>& extra_args) {
  char path[] = "/tmp/ensemble_fake_model_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return core::Status(core::codes::kInternal, "mkstemp failed");
  const std::string text = scenario.dump();
  bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written) return core::Status(core::codes::kInternal, "could not write the scenario");

  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) return core::Status(core::codes::kInternal, "pipe failed");
  std::vector<std::string> args = {"node", ENSEMBLE_FAKE_MODEL_JS, path};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) return core::Status(core::codes::kInternal, "fork failed");
  if (pid == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    execvp("node", argv.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  std::unique_ptr<FakeModelProcess> p(new FakeModelProcess());
  p->pid_ = pid;
  p->stdin_fd_ = in[1];
  p->stdout_fd_ = out[0];
  p->scenario_path_ = path;

  const std::string line = ReadFirstLine(p->stdout_fd_, kFakeModelStartTimeout);
  auto parsed = nlohmann::json::parse(line.substr(0, line.find('\n')), nullptr, false);
  if (!parsed.is_object() || !parsed.contains("port") || !parsed["port"].is_number_integer()) {
    return core::Status(core::codes::kInternal, "the fake model did not start: '" + line + "'");
  }
  p->port_ = parsed["port"].get<uint16_t>();
  p->control_port_ =
      parsed.contains("controlPort") ? parsed["controlPort"].get<uint16_t>() : p->port_;
  return p;
}

std::string FakeModelProcess::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

nlohmann::json FakeModelProcess::Requests() const {
  return HttpClient(control_port_).Get("/__requests").json();
}

void FakeModelProcess::CloseIdleConnections() const {
  HttpClient(control_port_).Post("/__close-idle", "");
}

void FakeModelProcess::Stop() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
  StopChild(pid_, kFakeModelStopTimeout);
  pid_ = -1;
  if (stdout_fd_ >= 0) close(stdout_fd_);
  stdout_fd_ = -1;
  if (!scenario_path_.empty()) unlink(scenario_path_.c_str());
  scenario_path_.clear();
}

FakeModelProcess::~FakeModelProcess() { Stop(); }

}  // namespace ensemble::testing
