// BrowserEnv: the core's platform interfaces (core/platform/env.h) as the
// browser and Node provide them to a WebAssembly module: wall time from
// Date.now() (through std::chrono), randomness from crypto.getRandomValues() (through getentropy),
// and log lines to the JS console.
//
// Thread-safety: the wasm module runs on one thread (the db worker, or Node's
// main thread); these classes keep no mutable state and need no locking.

#ifndef ENSEMBLE_WASM_PLATFORM_BROWSER_ENV_H_
#define ENSEMBLE_WASM_PLATFORM_BROWSER_ENV_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/platform/env.h"

namespace ensemble::wasm {

class BrowserClock final : public core::platform::Clock {
 public:
  int64_t NowMillis() const override;
};

class BrowserRandom final : public core::platform::Random {
 public:
  // Aborts the module if the platform has no secure random source: ids made
  // from predictable bytes could collide across devices, silently merging
  // records, which is worse than failing to start.
  void Fill(uint8_t* out, size_t size) override;
};

class ConsoleLogger final : public core::platform::Logger {
 public:
  void Log(core::platform::LogLevel level, std::string_view message) override;
};

// The three above, bundled; lives as long as the module.
class BrowserEnv {
 public:
  core::platform::Env env() { return {&clock_, &random_, &logger_}; }

 private:
  BrowserClock clock_;
  BrowserRandom random_;
  ConsoleLogger logger_;
};

}  // namespace ensemble::wasm

#endif  // ENSEMBLE_WASM_PLATFORM_BROWSER_ENV_H_
