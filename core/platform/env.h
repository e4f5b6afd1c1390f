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
#include <string_view>

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

class Logger {
 public:
  virtual ~Logger() = default;
  // Never pass secrets (keys, tokens, calendar links) to a logger.
  virtual void Log(LogLevel level, std::string_view message) = 0;
};

// The bundle handed to the core, like LevelDB's Env. Not owning.
struct Env {
  Clock* clock = nullptr;
  Random* random = nullptr;
  Logger* logger = nullptr;
};

}  // namespace ensemble::core::platform

#endif  // ENSEMBLE_CORE_PLATFORM_ENV_H_
