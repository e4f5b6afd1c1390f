#include "core/playbooks/route_json.h"

#include <cstring>
#include <string>
#include <utility>

#include "core/text/json_fields.h"

namespace ensemble::core::playbooks {
namespace {

using nlohmann::json;

// Routing's errors start "route request: " and quote a key as 'this'.
constexpr text::JsonFields kRouteRequest("route request: ", '\'');
// Every text field but the message and a mention's kind may be left out.
constexpr text::TextRule kOptionalText{.required = false};

Status ReadBool(const json& value, const std::string& where, bool* out) {
  if (!value.is_boolean()) return kRouteRequest.Invalid(where + " must be true or false");
  *out = value.get<bool>();
  return Status::Ok();
}

Status CheckArray(const json& value, const std::string& where) {
  if (!value.is_array()) return kRouteRequest.Invalid(where + " must be an array");
  if (value.size() > kMaxRouteListItems) {
    return kRouteRequest.Invalid(where + " has more than " + std::to_string(kMaxRouteListItems) +
                                 " items");
  }
  return Status::Ok();
}

Status ReadStrings(const json& value, const std::string& where, std::vector<std::string>* out) {
  ENSEMBLE_RETURN_IF_ERROR(CheckArray(value, where));
  out->clear();
  out->reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    // The item's name is built only for an error: lists of tool names are
    // long, and routing one message must stay cheap.
    const json& item = value[i];
    if (!item.is_string())
      return kRouteRequest.Invalid(where + "[" + std::to_string(i) + "] must be a string");
    out->push_back(item.get_ref<const std::string&>());
  }
  return Status::Ok();
}

// A customBoard filter: true, or the board's id.
Status ReadCustomBoard(const json& value, const std::string& where, bool* out) {
  if (value.is_null()) return Status::Ok();
  if (value.is_boolean()) {
    *out = *out || value.get<bool>();
  } else if (value.is_string()) {
    *out = *out || !value.get_ref<const std::string&>().empty();
  } else {
    return kRouteRequest.Invalid(where + " must be true, false or a board id");
  }
  return Status::Ok();
}

Status ReadSurface(const json& value, RouteRequest* request) {
  ENSEMBLE_RETURN_IF_ERROR(
      kRouteRequest.CheckKnownKeys(value, "surface", {"path", "customBoard", "surface"}));
  ENSEMBLE_RETURN_IF_ERROR(
      kRouteRequest.ReadText(value, "path", "surface", kOptionalText, &request->open_path));
  if (value.contains("customBoard")) {
    ENSEMBLE_RETURN_IF_ERROR(
        ReadCustomBoard(value["customBoard"], "surface.customBoard", &request->custom_board));
  }
  if (value.contains("surface")) {
    // The rest of AssistantPageContext's surface (tab, ids, geometry) does
    // not route; only its filters are read.
    const json& inner = value["surface"];
    if (!inner.is_object()) return kRouteRequest.Invalid("surface.surface must be an object");
    if (inner.contains("filters")) {
      const json& filters = inner["filters"];
      if (!filters.is_object())
        return kRouteRequest.Invalid("surface.surface.filters must be an object");
      if (filters.contains("customBoard")) {
        ENSEMBLE_RETURN_IF_ERROR(ReadCustomBoard(
            filters["customBoard"], "surface.surface.filters.customBoard", &request->custom_board));
      }
    }
  }
  return Status::Ok();
}

Status ReadApps(const json& value, RouteRequest* request) {
  ENSEMBLE_RETURN_IF_ERROR(CheckArray(value, "apps"));
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string where = "apps[" + std::to_string(i) + "]";
    const json& app = value[i];
    ENSEMBLE_RETURN_IF_ERROR(
        kRouteRequest.CheckKnownKeys(app, where, {"catalogName", "id", "vendor", "meetingNotes"}));
    ConnectedApp out;
    ENSEMBLE_RETURN_IF_ERROR(
        kRouteRequest.ReadText(app, "catalogName", where, kOptionalText, &out.catalog_name));
    ENSEMBLE_RETURN_IF_ERROR(kRouteRequest.ReadText(app, "id", where, kOptionalText, &out.id));
    ENSEMBLE_RETURN_IF_ERROR(
        kRouteRequest.ReadText(app, "vendor", where, kOptionalText, &out.vendor));
    if (app.contains("meetingNotes")) {
      ENSEMBLE_RETURN_IF_ERROR(
          ReadBool(app["meetingNotes"], where + ".meetingNotes", &out.meeting_notes));
    }
    request->connected_apps.push_back(std::move(out));
  }
  return Status::Ok();
}

Status ReadMentions(const json& value, RouteRequest* request) {
  ENSEMBLE_RETURN_IF_ERROR(CheckArray(value, "mentions"));
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string where = "mentions[" + std::to_string(i) + "]";
    ENSEMBLE_RETURN_IF_ERROR(
        kRouteRequest.CheckKnownKeys(value[i], where, {"kind", "id", "label"}));
    std::string kind;
    ENSEMBLE_RETURN_IF_ERROR(kRouteRequest.ReadText(value[i], "kind", where, {}, &kind));
    request->mention_kinds.push_back(std::move(kind));
  }
  return Status::Ok();
}

}  // namespace

Result<RouteRequest> RouteRequestFromJson(const json& value, const Router& router,
                                          bool default_tools) {
  const PlaybookSet& set = router.playbooks();
  ENSEMBLE_RETURN_IF_ERROR(kRouteRequest.CheckKnownKeys(
      value, "the request",
      {"message", "mentions", "mentionKinds", "surface", "path", "apps", "allowedTools",
       "buildTools", "appTools", "loaded", "toolsetsOff", "enabledModules"}));
  RouteRequest request;
  ENSEMBLE_RETURN_IF_ERROR(kRouteRequest.ReadText(
      value, "message", "", {.max_bytes = kMaxRouteMessageBytes}, &request.message));
  if (value.contains("mentions"))
    ENSEMBLE_RETURN_IF_ERROR(ReadMentions(value["mentions"], &request));
  if (value.contains("mentionKinds")) {
    std::vector<std::string> kinds;
    ENSEMBLE_RETURN_IF_ERROR(ReadStrings(value["mentionKinds"], "mentionKinds", &kinds));
    request.mention_kinds.insert(request.mention_kinds.end(), kinds.begin(), kinds.end());
  }
  if (value.contains("surface")) ENSEMBLE_RETURN_IF_ERROR(ReadSurface(value["surface"], &request));
  ENSEMBLE_RETURN_IF_ERROR(
      kRouteRequest.ReadText(value, "path", "", kOptionalText, &request.open_path));
  if (value.contains("apps")) ENSEMBLE_RETURN_IF_ERROR(ReadApps(value["apps"], &request));

  if (default_tools) {
    request.allowed_tools = router.known_tools();
    request.build_tools = router.known_tools();
  }
  struct ListField {
    const char* key;
    std::vector<std::string>* out;
  };
  for (const ListField& field :
       {ListField{"allowedTools", &request.allowed_tools},
        ListField{"buildTools", &request.build_tools}, ListField{"appTools", &request.app_tools},
        ListField{"loaded", &request.loaded},
        ListField{"enabledModules", &request.enabled_modules}}) {
    if (value.contains(field.key)) {
      ENSEMBLE_RETURN_IF_ERROR(ReadStrings(value[field.key], field.key, field.out));
    }
  }
  if (!value.contains("enabledModules")) {
    for (const Playbook& pb : set.all()) {
      if (!pb.module.empty()) request.enabled_modules.push_back(pb.module);
    }
  }
  if (value.contains("toolsetsOff")) {
    ENSEMBLE_RETURN_IF_ERROR(ReadBool(value["toolsetsOff"], "toolsetsOff", &request.toolsets_off));
  }
  return request;
}

namespace {

// The answer is sized first and then written through a pointer: appending
// piece by piece costs a call per piece in the wasm build (libc++'s string
// members are out of line there), more than the writing itself.

bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

bool HasShortEscape(unsigned char c) {
  return c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t';
}

// The bytes WriteJsonString writes for `text`, quotes included.
std::size_t JsonStringSize(std::string_view text) {
  std::size_t size = text.size() + 2;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscape(c)) size += HasShortEscape(c) ? 1 : 5;
  }
  return size;
}

// Writes `text` as nlohmann's dump() does at `p`; returns the end.
char* WriteJsonString(std::string_view text, char* p) {
  static constexpr char kHex[] = "0123456789abcdef";
  *p++ = '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (!NeedsEscape(c)) {
      *p++ = ch;
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"':
        *p++ = '"';
        break;
      case '\\':
        *p++ = '\\';
        break;
      case '\b':
        *p++ = 'b';
        break;
      case '\f':
        *p++ = 'f';
        break;
      case '\n':
        *p++ = 'n';
        break;
      case '\r':
        *p++ = 'r';
        break;
      case '\t':
        *p++ = 't';
        break;
      default:
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 0xF];
    }
  }
  *p++ = '"';
  return p;
}

char* WriteText(std::string_view text, char* p) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

std::size_t JsonListSize(const std::vector<std::string_view>& names) {
  std::size_t size = 2 + (names.empty() ? 0 : names.size() - 1);
  for (std::string_view name : names) size += JsonStringSize(name);
  return size;
}

char* WriteJsonList(const std::vector<std::string_view>& names, char* p) {
  *p++ = '[';
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) *p++ = ',';
    p = WriteJsonString(names[i], p);
  }
  *p++ = ']';
  return p;
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  const std::size_t start = out->size();
  out->resize(start + JsonStringSize(text));
  WriteJsonString(text, out->data() + start);
}

void AppendRouteResultJson(const RouteResultView& result, bool ok_member, std::string* out) {
  // Keys in the sorted order of nlohmann's std::map-backed objects.
  constexpr std::string_view kGuides = "{\"guides\":";
  constexpr std::string_view kOk = ",\"ok\":true";
  constexpr std::string_view kRecipe = ",\"recipe\":";
  constexpr std::string_view kSimple = ",\"simpleTodo\":true,\"tools\":";
  constexpr std::string_view kNotSimple = ",\"simpleTodo\":false,\"tools\":";
  const std::string_view simple = result.simple_todo ? kSimple : kNotSimple;
  const std::size_t size =
      kGuides.size() + JsonListSize(result.guides) + (ok_member ? kOk.size() : 0) + kRecipe.size() +
      JsonStringSize(result.recipe) + simple.size() + JsonListSize(result.tools) + 1;
  const std::size_t start = out->size();
  out->resize(start + size);
  char* p = out->data() + start;
  p = WriteText(kGuides, p);
  p = WriteJsonList(result.guides, p);
  if (ok_member) p = WriteText(kOk, p);
  p = WriteText(kRecipe, p);
  p = WriteJsonString(result.recipe, p);
  p = WriteText(simple, p);
  p = WriteJsonList(result.tools, p);
  *p = '}';
}

json RouteResultToJson(const RouteResult& result) {
  return json{{"guides", result.guides},
              {"tools", result.tools},
              {"simpleTodo", result.simple_todo},
              {"recipe", result.recipe}};
}

}  // namespace ensemble::core::playbooks
