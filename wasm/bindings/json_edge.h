// The Embind edge: how every binding turns its work into the JSON string JS
// receives. Success is {"ok":true, ...payload}; failure is
// {"ok":false,"code","message"} with a stable code (core/base/status.h, plus
// the wasm-only codes below). Nothing throws into JS: an exception escaping
// the core (a bug, or memory exhaustion) becomes code INTERNAL.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_WASM_BINDINGS_JSON_EDGE_H_
#define ENSEMBLE_WASM_BINDINGS_JSON_EDGE_H_

#include <emscripten/val.h>

#include <exception>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "core/base/status.h"

namespace ensemble::wasm {

namespace codes {
// A call that needs the database came before open() or after close().
inline constexpr std::string_view kNotOpen = "NOT_OPEN";
// open() while a database is already open: two connections over the no-lock
// OPFS VFS would corrupt it.
inline constexpr std::string_view kAlreadyOpen = "ALREADY_OPEN";
}  // namespace codes

// Serializes; invalid UTF-8 from the database is replaced, never thrown on.
std::string Dump(const nlohmann::json& value);

std::string ErrorJson(const core::Status& status);

// `payload` must be an object (or null for no payload); "ok":true is added.
std::string OkJson(nlohmann::json payload = nullptr);

// A JS argument that must be a string; anything else is INVALID_ARGUMENT
// rather than an Embind exception.
core::Result<std::string> StringArg(const emscripten::val& arg, std::string_view what);

// A JS argument that must be a string holding JSON: MALFORMED_JSON if not.
core::Result<nlohmann::json> JsonArg(const emscripten::val& arg, std::string_view what);

// Runs `fn` (returning core::Result<nlohmann::json>, an object payload) and
// renders the outcome; the one place exceptions are caught.
template <typename Fn>
std::string Guard(Fn&& fn) noexcept {
  try {
    core::Result<nlohmann::json> result = std::forward<Fn>(fn)();
    if (!result.ok()) return ErrorJson(result.status());
    return OkJson(std::move(result).value());
  } catch (const std::bad_alloc&) {
    return ErrorJson(core::Status(core::codes::kInternal, "out of memory"));
  } catch (const std::exception& e) {
    return ErrorJson(
        core::Status(core::codes::kInternal, std::string("internal error: ") + e.what()));
  } catch (...) {
    return ErrorJson(core::Status(core::codes::kInternal, "internal error"));
  }
}

}  // namespace ensemble::wasm

#endif  // ENSEMBLE_WASM_BINDINGS_JSON_EDGE_H_
