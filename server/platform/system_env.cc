#include "server/platform/system_env.h"

#include <sodium.h>

#include <chrono>
#include <cstdio>
#include <ctime>
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
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarning:
      return "WARN";
    case LogLevel::kError:
      return "ERROR";
  }
  return "?";
}

}  // namespace

void StderrLogger::Log(LogLevel level, std::string_view message) {
  if (level < min_level_) return;
  auto now = std::chrono::system_clock::now();
  std::time_t secs = std::chrono::system_clock::to_time_t(now);
  int ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);

  std::string line;
  line.reserve(message.size() + 48);
  line += stamp;
  line += '.';
  line += std::to_string(1000 + ms).substr(1);
  line += "Z ";
  line += LevelName(level);
  line += ' ';
  for (char c : message) {
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else {
      line += c;
    }
  }
  line += '\n';
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace ensemble::server::platform
