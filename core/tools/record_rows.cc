#include "core/tools/record_rows.h"

#include <algorithm>
#include <utility>

#include "core/base/id.h"
#include "core/records/record_mutators.h"
#include "core/store/database.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::tools::record_rows {

using store::Value;

namespace {

// The schema's default page (core/tools/tool_schema.cc WithPaging: "default 50").
constexpr int kDefaultListLimit = 50;

class FixedClock : public platform::Clock {
 public:
  explicit FixedClock(int64_t now_ms) : now_ms_(now_ms) {}
  int64_t NowMillis() const override { return now_ms_; }

 private:
  int64_t now_ms_;
};

bool SaysNothing(const json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) ||
         (v.is_array() && v.empty());
}

std::string ValueText(const json& v) {
  if (v.is_null()) return "empty";
  if (v.is_string()) return Quoted(v.get<std::string>());
  return v.dump();
}

}  // namespace

Result<const records::RecordKind*> KindOf(const ToolContext& ctx, const Noun& noun) {
  const records::RecordKind* kind = ctx.record_kinds.Find(noun.kind);
  if (!kind) {
    return Status(codes::kInternal, "no record kind " + std::string(noun.kind) + " in this build");
  }
  return kind;
}

Status NotFound(const Noun& noun, const std::string& id) {
  return Status(codes::kNotFound, "no " + std::string(noun.singular) + " with id " + id);
}

Result<std::optional<json>> FindInSpace(ToolContext& ctx, const Noun& noun, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(const records::RecordKind* kind, KindOf(ctx, noun));
  if (!IsValidId(id)) return std::optional<json>();
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row, records::ReadRecord(*kind, *ctx.db, id));
  if (!row || row->value("space_id", std::string()) != ctx.space_id) return std::optional<json>();
  return row;
}

Result<json> LiveInSpace(ToolContext& ctx, const Noun& noun, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row, FindInSpace(ctx, noun, id));
  if (!row || row->value("deleted", int64_t{0}) != 0) return NotFound(noun, id);
  return *row;
}

Result<std::vector<json>> AllLive(ToolContext& ctx, const Noun& noun) {
  ENSEMBLE_ASSIGN_OR_RETURN(const records::RecordKind* kind, KindOf(ctx, noun));
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows ids,
                            ctx.db->Query("SELECT id FROM " + std::string(kind->table) +
                                              " WHERE space_id = $1 AND deleted = 0 ORDER BY id",
                                          {Value(ctx.space_id)}));
  std::vector<json> out;
  out.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                              records::ReadRecord(*kind, *ctx.db, store::AsText(ids.rows[i][0])));
    if (row) out.push_back(std::move(*row));
  }
  return out;
}

Status CheckLiveIds(ToolContext& ctx, const Noun& noun, const json& ids) {
  if (!ids.is_array()) return Status::Ok();
  for (const json& id : ids) {
    if (!id.is_string()) return InvalidArgument(std::string(noun.singular) + " ids must be text");
    ENSEMBLE_RETURN_IF_ERROR(LiveInSpace(ctx, noun, id.get<std::string>()).status());
  }
  return Status::Ok();
}

std::string TitleOf(const Noun& noun, const json& row) {
  return row.value(std::string(noun.title), std::string());
}

std::vector<refs::SummaryItem> ItemsOf(const Noun& noun, const std::vector<json>& rows) {
  std::vector<refs::SummaryItem> items;
  for (const json& r : rows) {
    const json due = r.value("due", json(nullptr));
    items.push_back({TitleOf(noun, r), due.is_string() ? due.get<std::string>() : ""});
  }
  return items;
}

bool MatchesQuery(std::string_view query, const std::vector<std::string>& texts) {
  std::vector<std::string> lowered;
  for (const std::string& t : texts) lowered.push_back(text::AsciiLowered(t));
  std::string q = text::AsciiLowered(query);
  std::size_t start = 0;
  while (start < q.size()) {
    std::size_t end = q.find_first_of(" \t\r\n", start);
    if (end == std::string::npos) end = q.size();
    if (end > start) {
      const std::string word = q.substr(start, end - start);
      if (std::none_of(lowered.begin(), lowered.end(),
                       [&](const std::string& t) { return t.find(word) != std::string::npos; })) {
        return false;
      }
    }
    start = end + 1;
  }
  return true;
}

json ListResult(const Noun& noun, const json& in, const std::vector<json>& rows,
                const std::string& query, json (*shape)(const json& row)) {
  const std::size_t limit = static_cast<std::size_t>(
      std::clamp(IntIn(in, "limit", kDefaultListLimit), 1, tools::schema::kMaxListLimit));
  const std::size_t offset = static_cast<std::size_t>(std::max(IntIn(in, "offset", 0), 0));
  const std::size_t total = rows.size();
  const std::size_t begin = std::min(offset, total);
  const std::size_t end = std::min(total, begin + limit);
  json listed = json::array();
  std::vector<json> shown;
  for (std::size_t i = begin; i < end; ++i) {
    listed.push_back(shape(rows[i]));
    shown.push_back(rows[i]);
  }
  json data = {{std::string(noun.plural), std::move(listed)}, {"total", total}, {"offset", begin}};
  std::string summary;
  if (total == 0) {
    summary = query.empty() ? "No " + std::string(noun.plural) + " found."
                            : "No " + std::string(noun.plural) + " match " + Quoted(query) + ".";
  } else if (begin == 0 && end == total) {
    summary = refs::SummarizeRecords("Found", noun.singular, noun.plural, ItemsOf(noun, shown));
  } else {
    summary = refs::SummarizeRecords("Showing", noun.singular, noun.plural, ItemsOf(noun, shown)) +
              " " + text::FormatCount(total) + " match in all";
    if (end < total) summary += "; continue with offset " + std::to_string(end);
    summary += ".";
  }
  if (end < total) data["nextOffset"] = end;
  return json{{"summary", summary}, {"data", std::move(data)}};
}

Status RefuseUnkept(const Noun& noun, const json& object,
                    std::initializer_list<std::string_view> unkept, std::string_view tool) {
  if (!object.is_object()) return Status::Ok();
  for (std::string_view name : unkept) {
    auto it = object.find(name);
    if (it == object.end() || SaysNothing(*it)) continue;
    return InvalidArgument(std::string(noun.plural) + " do not keep " + std::string(name) +
                           " yet, so " + std::string(tool) + " cannot use it; leave it out");
  }
  return Status::Ok();
}

Result<std::vector<json>> DeleteTargets(ToolContext& ctx, const Noun& noun, const json& in) {
  if (!in.contains("ids") || !in["ids"].is_array()) {
    return InvalidArgument("name the " + std::string(noun.plural) + " to delete by their ids");
  }
  std::vector<json> out;
  std::vector<std::string> seen;
  for (const json& id : in["ids"]) {
    if (!id.is_string())
      return InvalidArgument("ids must be " + std::string(noun.singular) + " ids");
    const std::string s = id.get<std::string>();
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row, FindInSpace(ctx, noun, s));
    if (!row) return NotFound(noun, s);
    if (row->value("deleted", int64_t{0}) == 0) out.push_back(std::move(*row));
  }
  return out;
}

namespace {

json IdsOf(const std::vector<json>& rows) {
  json ids = json::array();
  for (const json& r : rows) ids.push_back(r["id"]);
  return ids;
}

std::string NothingToDelete(const Noun& noun) {
  return "No " + std::string(noun.plural) + " to move to Trash.";
}

}  // namespace

Status PrepareDelete(const Noun& noun, ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, DeleteTargets(*ctx, noun, call.input));
  json prepared = call.input;
  prepared["ids"] = IdsOf(rows);
  call.input = std::move(prepared);
  return Status::Ok();
}

Result<std::string> PreviewDelete(const Noun& noun, const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, DeleteTargets(*ctx, noun, call.input));
  if (rows.empty()) return NothingToDelete(noun);
  return refs::SummarizeRecords("Move", std::string(noun.singular) + " to Trash",
                                std::string(noun.plural) + " to Trash", ItemsOf(noun, rows));
}

Result<json> RunDelete(const Noun& noun, ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_RETURN_IF_ERROR(PrepareDelete(noun, call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, DeleteTargets(*ctx, noun, call.input));
  const std::string plural(noun.plural);
  if (rows.empty())
    return json{{"summary", NothingToDelete(noun)}, {"data", {{plural, json::array()}}}};
  std::vector<Mutation> writes;
  std::vector<Mutation> undo;
  json listed = json::array();
  const std::string kind(noun.kind);
  for (const json& r : rows) {
    writes.push_back({kind + ".delete", {{"id", r["id"]}}});
    undo.push_back({kind + ".restore", {{"id", r["id"]}}});
    listed.push_back({{"id", r["id"]}, {std::string(noun.title), TitleOf(noun, r)}});
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx->write(writes));
  return json{{"summary", refs::SummarizeRecords("Moved", std::string(noun.singular) + " to Trash",
                                                 plural + " to Trash", ItemsOf(noun, rows))},
              {"data", {{plural, std::move(listed)}}},
              {"undo", UndoJson(std::move(undo))}};
}

Status ConflictError(ToolContext& ctx, const Noun& noun, const json& before, const json& fields,
                     const Status& refused) {
  std::string now;
  Result<std::optional<json>> current = FindInSpace(ctx, noun, before.value("id", std::string()));
  if (current.ok() && *current) {
    for (const auto& [name, _] : fields.items()) {
      now += (now.empty() ? "" : ", ") + name + " is now " +
             ValueText((**current).value(name, json(nullptr)));
    }
  }
  return Status(refused.code(), Quoted(TitleOf(noun, before)) +
                                    " was changed elsewhere since it was read" +
                                    (now.empty() ? "" : " (" + now + ")") +
                                    "; read it again and send the new values as base");
}

Mutation UpdateBack(const Noun& noun, const std::string& id, const json& previous,
                    const json& written) {
  return {std::string(noun.kind) + ".update",
          {{"id", id}, {"fields", previous}, {"base", written}}};
}

void PinBase(json& input, const json& current) {
  if (!input.is_object() || input.contains("expectedVersion")) return;
  json& base = input["base"];
  if (!base.is_object()) base = json::object();
  for (const auto& [name, value] : current.items()) {
    if (!base.contains(name)) base[name] = value;
  }
}

Result<std::string> NewRecordId(ToolContext& ctx, int64_t offset) {
  if (!ctx.random) return Status(codes::kFailedPrecondition, "this turn cannot make new ids");
  FixedClock clock(ctx.now_ms + offset);
  return NewId(clock, *ctx.random);
}

}  // namespace ensemble::core::tools::record_rows
