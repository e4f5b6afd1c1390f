#include "core/boards/board.h"

#include <set>
#include <string>

#include "core/records/record_mutators.h"
#include "core/text/utf8.h"

namespace ensemble::core::boards {

using nlohmann::json;

namespace {

// A string with something besides white space, of at most `max` code points.
bool IsShortText(const json& v, size_t max) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  return text::IsValidUtf8(s) && !text::Trim(s).empty() && text::CountCodePoints(s) <= max;
}

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "description", .max_chars = kMaxDescriptionChars},
    {.name = "columns",
     .type = records::FieldType::kJson,
     .max_chars = kMaxColumnsBytes,
     .check = CheckColumns},
    {.name = "tiles",
     .type = records::FieldType::kJson,
     .max_chars = kMaxTilesBytes,
     .check = CheckTiles},
};

}  // namespace

const records::RecordKind kBoardKind = {kKind, kTable, kFields};

Status CheckColumns(const json& columns) {
  if (!columns.is_array()) return InvalidArgument("columns must be a list");
  if (columns.size() > kMaxColumns) {
    return InvalidArgument("a board has at most " + std::to_string(kMaxColumns) + " columns");
  }
  std::set<std::string> ids;
  for (const json& c : columns) {
    if (!c.is_object()) return InvalidArgument("each column must be an object {id, title}");
    for (const auto& [key, _] : c.items()) {
      if (key != "id" && key != "title") return InvalidArgument("a column has no '" + key + "'");
    }
    if (!IsShortText(c.value("id", json()), kMaxColumnIdChars)) {
      return InvalidArgument("each column needs an id of at most " +
                             std::to_string(kMaxColumnIdChars) + " characters");
    }
    if (!IsShortText(c.value("title", json()), kMaxColumnTitleChars)) {
      return InvalidArgument("each column needs a title of at most " +
                             std::to_string(kMaxColumnTitleChars) + " characters");
    }
    if (!ids.insert(c["id"].get<std::string>()).second) {
      return InvalidArgument("two columns have the id '" + c["id"].get<std::string>() + "'");
    }
  }
  return Status::Ok();
}

Status CheckTiles(const json& tiles) {
  if (!tiles.is_array()) return InvalidArgument("tiles must be a list");
  if (tiles.size() > kMaxTiles) {
    return InvalidArgument("a board has at most " + std::to_string(kMaxTiles) + " tiles");
  }
  for (const json& t : tiles) {
    if (!t.is_object()) return InvalidArgument("each tile must be an object {kind, title}");
    for (const auto& [key, _] : t.items()) {
      if (key != "kind" && key != "title") return InvalidArgument("a tile has no '" + key + "'");
    }
    if (!IsShortText(t.value("kind", json()), kMaxTileKindChars)) {
      return InvalidArgument("each tile needs a kind of at most " +
                             std::to_string(kMaxTileKindChars) + " characters");
    }
    if (t.contains("title") &&
        (!t["title"].is_string() || !text::IsValidUtf8(t["title"].get_ref<const std::string&>()) ||
         text::CountCodePoints(t["title"].get_ref<const std::string&>()) > kMaxTileTitleChars)) {
      return InvalidArgument("a tile's title is text of at most " +
                             std::to_string(kMaxTileTitleChars) + " characters");
    }
  }
  return Status::Ok();
}

const json* FindColumn(const json& columns, std::string_view column_id) {
  if (!columns.is_array()) return nullptr;
  for (const json& c : columns) {
    if (c.is_object() && c.contains("id") && c["id"].is_string() &&
        c["id"].get_ref<const std::string&>() == column_id) {
      return &c;
    }
  }
  return nullptr;
}

// Shipped: never edit; change the table with a new migration (card.cc adds
// the columns and tiles).
const store::Migration kCreateBoardTable = {
    6, "create boards",
    "CREATE TABLE boards ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " description TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX boards_space ON boards (space_id, id);"
    "CREATE INDEX boards_row_version ON boards (row_version);"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kBoardKind, registry);
}

}  // namespace ensemble::core::boards
