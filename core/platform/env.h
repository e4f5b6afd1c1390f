// The platform interfaces the core needs from outside: a clock, a source of
// randomness and a logger. The wasm module and the server each implement them;
// tests use the fakes in tests/fakes/. The core never reads the system clock,
// entropy or stdout directly, so all of its logic runs deterministically in tests.
//
// Thread-safety: implementations given to the server must be safe to call from
// several threads; the wasm module is single-threaded.

#ifndef ENSEMBLE_CORE_PLATFORM_ENV_H_
#define ENSEMBLE_CORE_PLATFORM_ENV_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace ensemble::core::platform {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch (wall time, may step).
  virtual int64_t NowMillis() const = 0;
};

class Random {
 public:
  virtual ~Random() = default;
  // Fills `out` with `size` unpredictable bytes (suitable for ids, not keys).
  virtual void Fill(uint8_t* out, size_t size) = 0;
};

enum class LogLevel { kDebug, kInfo, kWarning, kError };

// One named value of a structured log line: a request's id, its status.
struct LogField {
  std::string_view key;
  std::string text;  // The value, when it is not a number.
  double number = 0;
  bool is_number = false;

  static LogField Text(std::string_view key, std::string value) {
    return {key, std::move(value), 0, false};
  }
  static LogField Number(std::string_view key, double value) { return {key, {}, value, true}; }
};

class Logger {
 public:
  virtual ~Logger() = default;
  // Never pass secrets (keys, tokens, calendar links) to a logger.
  virtual void Log(LogLevel level, std::string_view message) = 0;
  // `message` with named values. A logger that writes structured lines keeps
  // them as fields; this default appends them to the message as " key=value".
  virtual void LogFields(LogLevel level, std::string_view message,
                         std::span<const LogField> fields) {
    std::string line(message);
    for (const LogField& f : fields) {
      line += ' ';
      line += f.key;
      line += '=';
      if (!f.is_number) {
        line += f.text;
      } else if (f.number == static_cast<double>(static_cast<long long>(f.number))) {
        line += std::to_string(static_cast<long long>(f.number));
      } else {
        line += std::to_string(f.number);
      }
    }
    Log(level, line);
  }
};

// The bundle handed to the core, like LevelDB's Env. Not owning.
struct Env {
  Clock* clock = nullptr;
  Random* random = nullptr;
  Logger* logger = nullptr;
};

}  // namespace ensemble::core::platform

#endif  // ENSEMBLE_CORE_PLATFORM_ENV_H_
