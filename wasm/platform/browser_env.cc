#include "wasm/platform/browser_env.h"

#include <emscripten/console.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace ensemble::wasm {
namespace {
// getentropy() refuses requests larger than this (as on Linux and the BSDs).
constexpr size_t kMaxEntropyChunk = 256;
}  // namespace

int64_t BrowserClock::NowMillis() const {
  // Emscripten's CLOCK_REALTIME is Date.now().
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void BrowserRandom::Fill(uint8_t* out, size_t size) {
  while (size > 0) {
    size_t chunk = size < kMaxEntropyChunk ? size : kMaxEntropyChunk;
    if (getentropy(out, chunk) != 0) {
      emscripten_console_error("ensemble: no secure random source (crypto.getRandomValues)");
      std::abort();
    }
    out += chunk;
    size -= chunk;
  }
}

void ConsoleLogger::Log(core::platform::LogLevel level, std::string_view message) {
  // The console functions take a C string; the view may not be terminated.
  std::string line = "ensemble: " + std::string(message);
  switch (level) {
    case core::platform::LogLevel::kError:
      emscripten_console_error(line.c_str());
      break;
    case core::platform::LogLevel::kWarning:
      emscripten_console_warn(line.c_str());
      break;
    case core::platform::LogLevel::kDebug:
    case core::platform::LogLevel::kInfo:
      emscripten_console_log(line.c_str());
      break;
  }
}

}  // namespace ensemble::wasm
