#include "server/platform/system_env.h"

#include <sodium.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>

namespace ensemble::server::platform {

using core::platform::LogLevel;

int64_t SystemClock::NowMillis() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

core::Status SystemRandom::Init() {
  // Returns 1 when already initialized; safe to call more than once.
  if (sodium_init() < 0) {
    return core::Status(core::codes::kInternal, "libsodium could not initialize");
  }
  return core::Status::Ok();
}

void SystemRandom::Fill(uint8_t* out, size_t size) { randombytes_buf(out, size); }

namespace {

std::string_view LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "?";
}

// "2026-12-06T21:00:00.123Z".
std::string UtcStamp() {
  auto now = std::chrono::system_clock::now();
  std::time_t secs = std::chrono::system_clock::to_time_t(now);
  int ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
  return std::string(stamp) + "." + std::to_string(1000 + ms).substr(1) + "Z";
}

}  // namespace

void StderrLogger::Log(LogLevel level, std::string_view message) { LogFields(level, message, {}); }

void StderrLogger::LogFields(LogLevel level, std::string_view message,
                             std::span<const core::platform::LogField> fields) {
  if (level < min_level_) return;
  nlohmann::ordered_json line = {
      {"time", UtcStamp()}, {"level", LevelName(level)}, {"msg", message}};
  for (const core::platform::LogField& f : fields) {
    // The line's own keys come first and stay; a field never replaces them.
    if (line.contains(f.key)) continue;
    if (f.is_number) {
      // A whole number is written as one (a status is 200, not 200.0).
      constexpr double kExactInts = 9007199254740992.0;  // 2^53.
      if (f.number == std::floor(f.number) && std::fabs(f.number) < kExactInts) {
        line[std::string(f.key)] = static_cast<int64_t>(f.number);
      } else {
        line[std::string(f.key)] = f.number;
      }
    } else {
      line[std::string(f.key)] = f.text;
    }
  }
  // Invalid UTF-8 in a message becomes U+FFFD rather than an exception.
  std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text += '\n';
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

}  // namespace ensemble::server::platform
