// The real platform for the server: the system clock, the kernel's entropy
// (through libsodium) and a logger that writes one JSON object per line to
// stderr: {"time": "<UTC, ms>", "level": "info", "msg": "...", <fields>}.
//
// Thread-safety: every class here is safe to call from several threads.

#ifndef ENSEMBLE_SERVER_PLATFORM_SYSTEM_ENV_H_
#define ENSEMBLE_SERVER_PLATFORM_SYSTEM_ENV_H_

#include <cstdint>
#include <mutex>
#include <string_view>

#include "core/base/status.h"
#include "core/platform/env.h"

namespace ensemble::server::platform {

class SystemClock final : public core::platform::Clock {
 public:
  int64_t NowMillis() const override;
};

class SystemRandom final : public core::platform::Random {
 public:
  // Initializes libsodium; fails only when the kernel offers no entropy.
  static core::Status Init();
  // Precondition: Init() returned OK.
  void Fill(uint8_t* out, size_t size) override;
};

class StderrLogger final : public core::platform::Logger {
 public:
  explicit StderrLogger(core::platform::LogLevel min_level = core::platform::LogLevel::kInfo)
      : min_level_(min_level) {}
  // Writes one JSON line (JSON escapes newlines, so a message is one line).
  void Log(core::platform::LogLevel level, std::string_view message) override;
  // The same, with each field a key of the line (a number as a number).
  void LogFields(core::platform::LogLevel level, std::string_view message,
                 std::span<const core::platform::LogField> fields) override;

 private:
  core::platform::LogLevel min_level_;
  std::mutex mu_;  // Keeps lines from different threads whole.
};

// The bundle main() hands to the App.
struct SystemEnv {
  SystemClock clock;
  SystemRandom random;
  StderrLogger logger;
  core::platform::Env env() { return {&clock, &random, &logger}; }
};

}  // namespace ensemble::server::platform

#endif  // ENSEMBLE_SERVER_PLATFORM_SYSTEM_ENV_H_
