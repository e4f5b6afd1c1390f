#include "server/config.h"

#include <charconv>
#include <cstdlib>
#include <string>

namespace ensemble::server {

core::Result<Config> ConfigFromEnv(const EnvLookup& lookup) {
  auto get = [&lookup](const char* name) -> const char* {
    const char* v = lookup ? lookup(name) : std::getenv(name);
    // An empty variable means "unset", as shells make unsetting awkward.
    return (v && *v) ? v : nullptr;
  };
  Config config;
  if (const char* v = get("ENSEMBLE_HTTP_ADDR")) config.http_addr = v;
  if (const char* v = get("ENSEMBLE_PORT")) {
    std::string s(v);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), port);
    if (ec != std::errc() || end != s.data() + s.size() || port > 65535) {
      return core::Status(core::codes::kInvalidArgument,
                          "ENSEMBLE_PORT must be a port number (0-65535), not '" + s + "'");
    }
    config.port = static_cast<uint16_t>(port);
  }
  if (const char* v = get("ENSEMBLE_MAX_EVENT_SUBSCRIBERS")) {
    std::string s(v);
    size_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || n == 0) {
      return core::Status(
          core::codes::kInvalidArgument,
          "ENSEMBLE_MAX_EVENT_SUBSCRIBERS must be a positive number, not '" + s + "'");
    }
    config.max_event_subscribers = n;
  }
  if (const char* v = get("ENSEMBLE_DATA_DIR")) config.data_dir = v;
  if (const char* v = get("ENSEMBLE_DATABASE_URL")) config.database_url = v;
  if (const char* v = get("ENSEMBLE_WEB_ROOT")) config.web_root = v;
  if (const char* v = get("ENSEMBLE_WASM_DIR")) config.wasm_dir = v;
  return config;
}

}  // namespace ensemble::server
