#include "server/config.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/text/utf8.h"

namespace ensemble::server {
namespace {

// A whole number in 1..max, or INVALID_ARGUMENT naming the variable.
core::Result<size_t> ParseCount(const char* name, const std::string& s, size_t max) {
  size_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || n == 0 || n > max) {
    std::string range =
        max == SIZE_MAX ? "a positive number" : "a number from 1 to " + std::to_string(max);
    return core::Status(core::codes::kInvalidArgument,
                        std::string(name) + " must be " + range + ", not '" + s + "'");
  }
  return n;
}

// on/off (also 1/0, true/false), or INVALID_ARGUMENT naming the variable.
core::Result<bool> ParseSwitch(const char* name, const std::string& s) {
  if (s == "on" || s == "1" || s == "true") return true;
  if (s == "off" || s == "0" || s == "false") return false;
  return core::Status(core::codes::kInvalidArgument,
                      std::string(name) + " must be on or off, not '" + s + "'");
}

}  // namespace

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
    ENSEMBLE_ASSIGN_OR_RETURN(config.max_event_subscribers,
                              ParseCount("ENSEMBLE_MAX_EVENT_SUBSCRIBERS", v, SIZE_MAX));
  }
  if (const char* v = get("ENSEMBLE_MAX_CONNECTIONS")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.max_connections,
                              ParseCount("ENSEMBLE_MAX_CONNECTIONS", v, SIZE_MAX));
  }
  if (const char* v = get("ENSEMBLE_MAX_TURNS_PER_ACCOUNT")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.max_turns_per_account,
                              ParseCount("ENSEMBLE_MAX_TURNS_PER_ACCOUNT", v, SIZE_MAX));
  }
  if (const char* v = get("ENSEMBLE_STORE_CONNECTIONS")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.store_connections,
                              ParseCount("ENSEMBLE_STORE_CONNECTIONS", v, kMaxStoreConnections));
  }
  if (const char* v = get("ENSEMBLE_DATA_DIR")) config.data_dir = v;
  if (const char* v = get("ENSEMBLE_DATABASE_URL")) config.database_url = v;
  if (const char* v = get("ENSEMBLE_WEB_ROOT")) config.web_root = v;
  if (const char* v = get("ENSEMBLE_WASM_DIR")) config.wasm_dir = v;
  if (const char* v = get("ENSEMBLE_WEB_COMPRESSED_DIR")) config.web_compressed_dir = v;
  if (const char* v = get("ENSEMBLE_ACCOUNTS")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.accounts, ParseSwitch("ENSEMBLE_ACCOUNTS", v));
  }
  if (const char* v = get("ENSEMBLE_SIGNUP")) {
    std::string s(v);
    if (s != "first" && s != "open") {
      return core::Status(core::codes::kInvalidArgument,
                          "ENSEMBLE_SIGNUP must be first or open, not '" + s + "'");
    }
    config.open_signup = s == "open";
  }
  config.private_links = !config.accounts;
  if (const char* v = get("ENSEMBLE_PRIVATE_LINKS")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.private_links, ParseSwitch("ENSEMBLE_PRIVATE_LINKS", v));
  }
  if (const char* v = get("ENSEMBLE_COOKIE_SECURE")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.secure_cookies, ParseSwitch("ENSEMBLE_COOKIE_SECURE", v));
  }
  if (const char* v = get("ENSEMBLE_ALLOWED_HOSTS")) {
    std::string_view rest(v);
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      const std::string_view name = core::text::Trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (name.empty()) continue;
      if (name.find_first_of("/*@ ") != std::string_view::npos) {
        return core::Status(core::codes::kInvalidArgument,
                            "ENSEMBLE_ALLOWED_HOSTS must list host names separated by commas, "
                            "not '" +
                                std::string(name) + "'");
      }
      config.allowed_hosts.emplace_back(name);
    }
  }
  if (const char* v = get("ENSEMBLE_LOCAL_ON_NETWORK")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.local_on_network, ParseSwitch("ENSEMBLE_LOCAL_ON_NETWORK", v));
  }
  // Secrets: checked where they are used (App::Create), never echoed here.
  if (const char* v = get("ENSEMBLE_SECRET_KEY")) config.secret_key = v;
  if (const char* v = get("ENSEMBLE_METRICS_TOKEN")) config.metrics_token = v;
  if (const char* v = get("ENSEMBLE_MODEL_PROVIDER")) config.operator_model.provider = v;
  if (const char* v = get("ENSEMBLE_MODEL_BASE_URL")) config.operator_model.base_url = v;
  if (const char* v = get("ENSEMBLE_MODEL")) config.operator_model.model = v;
  if (const char* v = get("ENSEMBLE_MODEL_API_KEY")) config.operator_model.api_key = v;
  if (const char* v = get("ENSEMBLE_MODEL_CALL_TIMEOUT_MS")) {
    ENSEMBLE_ASSIGN_OR_RETURN(config.model_call_timeout,
                              core::model::ParseModelCallTimeout(std::string_view(v)));
  }
  if (config.operator_model.configured() && config.operator_model.provider.empty()) {
    config.operator_model.provider = "openai";
  }
  return config;
}

}  // namespace ensemble::server
