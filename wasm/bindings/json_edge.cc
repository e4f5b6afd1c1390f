#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {

using nlohmann::json;

std::string Dump(const json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
}

std::string ErrorJson(const core::Status& status) {
  // Written by hand so that even a failure to build a json object (memory)
  // still yields a well-formed answer.
  try {
    return Dump(json{{"ok", false}, {"code", status.code()}, {"message", status.message()}});
  } catch (...) {
    return R"({"ok":false,"code":"INTERNAL","message":"internal error"})";
  }
}

std::string OkJson(json payload) {
  if (payload.is_null()) payload = json::object();
  if (!payload.is_object()) payload = json{{"value", std::move(payload)}};
  payload["ok"] = true;
  return Dump(payload);
}

core::Result<std::string> StringArg(const emscripten::val& arg, std::string_view what) {
  if (!arg.isString()) {
    return core::Status(core::codes::kInvalidArgument, std::string(what) + " must be a string");
  }
  return arg.as<std::string>();
}

core::Result<json> JsonArg(const emscripten::val& arg, std::string_view what) {
  if (!arg.isString()) {
    return core::Status(core::codes::kMalformedJson, std::string(what) + " must be a JSON string");
  }
  json parsed = json::parse(arg.as<std::string>(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return core::Status(core::codes::kMalformedJson, std::string(what) + " is not valid JSON");
  }
  return parsed;
}

}  // namespace ensemble::wasm
