// JS API for reading records of any synced kind (pages, boards, projects,
// people, ...), the Trash and the people who may be one, for the app's views
// other than the task list.
// Writes go through mutate() (replica_bindings.cc), so they reach the outbox.
//
// A record reads as {kind, id, spaceId, <fields>, version, deleted,
// createdAt, updatedAt}. Field names stay as the mutators take them
// (`fields: {column, position}`), so a view can send back what it read; list
// and JSON fields come back as JSON values, not as their stored text.

#include <emscripten/bind.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/hub/hub.h"
#include "core/people/merge.h"
#include "core/records/record_kind.h"
#include "core/sync/row_codec.h"
#include "core/sync/sync_config.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// Columns every record table has besides its fields (record_kind.h).
constexpr std::string_view kMetaColumns[] = {"id",         "space_id",   "version",    "deleted",
                                             "created_at", "updated_at", "row_version"};

bool IsMetaColumn(std::string_view column) {
  for (std::string_view m : kMetaColumns) {
    if (m == column) return true;
  }
  return false;
}

// A stored list or JSON value is JSON text in its column: give it back as the
// value. With the kind's descriptor the field type says which columns those
// are; without it (a kind newer than this build's descriptors), text that
// parses whole as a JSON array or object is taken as one.
json DecodeColumn(const core::records::RecordKind* kind, std::string_view column,
                  const json& value) {
  if (!value.is_string()) return value;
  if (kind) {
    const core::records::FieldSpec* field = kind->FindField(column);
    if (!field || !core::records::StoredAsJsonText(field->type)) return value;
    return core::records::FromColumn(*field, value);
  }
  const std::string& text = value.get_ref<const std::string&>();
  if (text.empty() || (text.front() != '[' && text.front() != '{')) return value;
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? value : parsed;
}

json RecordJson(std::string_view kind, const core::records::RecordKind* known, const json& row) {
  json out = {{"kind", std::string(kind)},
              {"id", row.value("id", "")},
              {"spaceId", row.value("space_id", "")},
              {"version", row.value("version", int64_t{0})},
              {"deleted", row.value("deleted", int64_t{0}) != 0},
              // The default's type is the value's: an int would cut the
              // milliseconds since the epoch to 32 bits.
              {"createdAt", row.value("created_at", int64_t{0})},
              {"updatedAt", row.value("updated_at", int64_t{0})}};
  for (const auto& [column, value] : row.items()) {
    if (!IsMetaColumn(column)) out[column] = DecodeColumn(known, column, value);
  }
  return out;
}

core::Result<json> ListOf(const core::sync::SyncedTable& table, bool deleted) {
  Session& s = Session::Get();
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      s.db().Query("SELECT * FROM " + std::string(table.table) + " WHERE deleted = $1 ORDER BY id",
                   {core::store::Value(int64_t{deleted ? 1 : 0})}));
  const core::records::RecordKind* known = core::hub::FindRecordKind(table.kind);
  json list = json::array();
  for (size_t i = 0; i < rows.size(); ++i) {
    list.push_back(RecordJson(table.kind, known, core::sync::RowToJson(rows, i)));
  }
  return list;
}

// listRecords(kind, optionsJson) -> {records: [...]}: the kind's live records
// oldest first, or its records in Trash with options {"deleted": true}.
std::string ListRecordsJs(val kind_arg, val options_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string kind, StringArg(kind_arg, "kind"));
    ENSEMBLE_ASSIGN_OR_RETURN(json options, JsonArg(options_json, "optionsJson"));
    if (!options.is_object()) {
      return core::Status(core::codes::kInvalidArgument, "optionsJson must be an object");
    }
    ENSEMBLE_RETURN_IF_ERROR(Session::Get().CheckOpen());
    const core::sync::SyncConfig config = core::hub::Config();
    const core::sync::SyncedTable* table = config.FindKind(kind);
    if (!table) {
      return core::Status(core::codes::kInvalidArgument, "no record kind '" + kind + "'");
    }
    const bool deleted = options.value("deleted", false);
    ENSEMBLE_ASSIGN_OR_RETURN(json records, ListOf(*table, deleted));
    return json{{"records", std::move(records)}};
  });
}

// listTrash() -> {records: [...]}: every record in Trash, all kinds, newest
// change first.
std::string ListTrashJs() {
  return Guard([]() -> core::Result<json> {
    ENSEMBLE_RETURN_IF_ERROR(Session::Get().CheckOpen());
    json all = json::array();
    for (const core::sync::SyncedTable& table : core::hub::Config().tables) {
      ENSEMBLE_ASSIGN_OR_RETURN(json records, ListOf(table, /*deleted=*/true));
      for (json& r : records) all.push_back(std::move(r));
    }
    std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
      return a.value("updatedAt", int64_t{0}) > b.value("updatedAt", int64_t{0});
    });
    return json{{"records", std::move(all)}};
  });
}

// mergeSuggestions(spaceId) -> {suggestions: [{personId, intoId, reason}]}:
// pairs of the space's people that may be one person (people/merge.h), read
// from the replica, so the People view suggests offline too.
std::string MergeSuggestionsJs(val space_arg) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string space_id, StringArg(space_arg, "spaceId"));
    ENSEMBLE_RETURN_IF_ERROR(Session::Get().CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(auto found,
                              core::people::FindMergeSuggestions(Session::Get().db(), space_id));
    json out = json::array();
    for (const core::people::MergeSuggestion& s : found) {
      out.push_back({{"personId", s.person}, {"intoId", s.into}, {"reason", s.reason}});
    }
    return json{{"suggestions", std::move(out)}};
  });
}

// recordKinds() -> {kinds: ["task", ...]}: the synced kinds this build knows.
std::string RecordKindsJs() {
  return Guard([]() -> core::Result<json> {
    json kinds = json::array();
    for (const core::sync::SyncedTable& table : core::hub::Config().tables) {
      kinds.push_back(std::string(table.kind));
    }
    return json{{"kinds", std::move(kinds)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_records) {
  emscripten::function("listRecords", &ListRecordsJs);
  emscripten::function("listTrash", &ListTrashJs);
  emscripten::function("recordKinds", &RecordKindsJs);
  emscripten::function("mergeSuggestions", &MergeSuggestionsJs);
}

}  // namespace ensemble::wasm
