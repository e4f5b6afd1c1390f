// JS API of the client replica: open/close the browser database, run
// mutators locally, and the client half of push and pull. Each function takes
// and returns JSON strings (see json_edge.h).

#include <emscripten/bind.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// open(path, vfsName) -> {clientId, clientGroupId}
std::string Open(val path, val vfs_name) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string p, StringArg(path, "path"));
    std::string vfs;
    if (!vfs_name.isUndefined() && !vfs_name.isNull()) {
      ENSEMBLE_ASSIGN_OR_RETURN(vfs, StringArg(vfs_name, "vfsName"));
    }
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.Open(p, vfs));
    return json{{"clientId", s.replica().client_id()},
                {"clientGroupId", s.replica().client_group_id()}};
  });
}

std::string Close() {
  return Guard([]() -> core::Result<json> {
    Session::Get().Close();
    return json::object();
  });
}

// mutate(name, argsJson) -> {mutationId}
std::string Mutate(val name, val args_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string n, StringArg(name, "name"));
    ENSEMBLE_ASSIGN_OR_RETURN(json args, JsonArg(args_json, "argsJson"));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t id, s.replica().Mutate(n, args));
    return json{{"mutationId", id}};
  });
}

// pushRequest() -> {request: body for POST /api/sync/push, count}
std::string PushRequest() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(json request, s.replica().PushRequest());
    size_t count = request["mutations"].size();
    return json{{"request", std::move(request)}, {"count", count}};
  });
}

// applyPushResponse(responseJson) -> {}
std::string ApplyPushResponse(val response_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json response, JsonArg(response_json, "responseJson"));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_RETURN_IF_ERROR(s.replica().ApplyPushResponse(response));
    return json::object();
  });
}

// pullRequest() -> {request: {clientId, cursor}}
std::string PullRequest() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(json request, s.replica().PullRequest());
    return json{{"request", std::move(request)}};
  });
}

// applyPull(responseJson) -> {cursor, more}; more: pull again at once.
std::string ApplyPull(val response_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json response, JsonArg(response_json, "responseJson"));
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(bool more, s.replica().ApplyPull(response));
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t cursor, s.replica().Cursor());
    return json{{"cursor", cursor}, {"more", more}};
  });
}

// pendingCount() -> {count}
std::string PendingCount() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t count, s.replica().PendingCount());
    return json{{"count", count}};
  });
}

// rejections() -> {rejections: [{id, name, args, code, message, details}]}
std::string Rejections() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(json rejections, s.replica().Rejections());
    return json{{"rejections", std::move(rejections)}};
  });
}

// dismissRejection(mutationId) -> {}
std::string DismissRejection(double mutation_id) {
  return Guard([mutation_id]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_RETURN_IF_ERROR(s.replica().DismissRejection(static_cast<int64_t>(mutation_id)));
    return json::object();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_replica) {
  emscripten::function("open", &Open);
  emscripten::function("close", &Close);
  emscripten::function("mutate", &Mutate);
  emscripten::function("pushRequest", &PushRequest);
  emscripten::function("applyPushResponse", &ApplyPushResponse);
  emscripten::function("pullRequest", &PullRequest);
  emscripten::function("applyPull", &ApplyPull);
  emscripten::function("pendingCount", &PendingCount);
  emscripten::function("rejections", &Rejections);
  emscripten::function("dismissRejection", &DismissRejection);
}

}  // namespace ensemble::wasm
