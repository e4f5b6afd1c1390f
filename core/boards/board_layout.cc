#include "core/boards/board_layout.h"

#include <set>
#include <string>

#include "core/records/record_mutators.h"
#include "core/text/utf8.h"

namespace ensemble::core::boards {

using nlohmann::json;
using store::Value;

namespace {

const records::FieldSpec kLayoutFields[] = {
    {.name = "tiles",
     .type = records::FieldType::kJson,
     .required = true,
     .max_chars = kMaxLayoutBytes,
     .check = CheckLayoutTiles},
};

bool IsIntIn(const json& v, int64_t min, int64_t max) {
  return v.is_number_integer() && v.get<int64_t>() >= min && v.get<int64_t>() <= max;
}

// ALREADY_EXISTS when `space_id` has a live layout other than `id`.
Status CheckOnlyLayout(sync::MutationContext& ctx, const std::string& space_id,
                       const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db().Query("SELECT id FROM " + std::string(kLayoutTable) +
                                               " WHERE space_id = $1 AND deleted = 0 AND id <> $2",
                                           {Value(space_id), Value(id)}));
  if (rows.empty()) return Status::Ok();
  ctx.details() = json{{"layout", store::AsText(rows.rows[0][0])}};
  return Status(codes::kAlreadyExists,
                "this space already has a board overview layout; change that one instead");
}

Status CreateLayout(sync::MutationContext& ctx, const json& args) {
  const std::string space = records::StringMember(args, "spaceId");
  // Malformed arguments are CreateRecord's to name.
  if (!space.empty() && !records::StringMember(args, "id").empty()) {
    ENSEMBLE_RETURN_IF_ERROR(CheckOnlyLayout(ctx, space, records::StringMember(args, "id")));
  }
  return records::CreateRecord(kLayoutRecordKind, ctx, args);
}

Status RestoreLayout(sync::MutationContext& ctx, const json& args) {
  const std::string id = records::StringMember(args, "id");
  if (!id.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                              records::ReadRecord(kLayoutRecordKind, ctx.db(), id));
    if (row) ENSEMBLE_RETURN_IF_ERROR(CheckOnlyLayout(ctx, row->value("space_id", ""), id));
  }
  return records::RestoreRecord(kLayoutRecordKind, ctx, args);
}

}  // namespace

const records::RecordKind kLayoutRecordKind = {kLayoutKind, kLayoutTable, kLayoutFields};

const store::Migration kCreateBoardLayoutTable = {
    26, "board overview layouts",
    "CREATE TABLE board_layouts ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " tiles TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX board_layouts_space ON board_layouts (space_id, id);"
    "CREATE INDEX board_layouts_row_version ON board_layouts (row_version);"};

Status CheckLayoutTiles(const json& tiles) {
  if (!tiles.is_array()) return InvalidArgument("tiles must be a list");
  if (tiles.size() > kMaxLayoutTiles) {
    return InvalidArgument("a layout has at most " + std::to_string(kMaxLayoutTiles) + " tiles");
  }
  std::set<std::string> ids;
  for (const json& t : tiles) {
    if (!t.is_object()) return InvalidArgument("each tile must be an object {id, x, y, w, h}");
    for (const auto& [key, _] : t.items()) {
      if (key != "id" && key != "x" && key != "y" && key != "w" && key != "h") {
        return InvalidArgument("a tile has no '" + key + "'");
      }
    }
    const json id = t.value("id", json());
    if (!id.is_string() || id.get_ref<const std::string&>().empty() ||
        !text::IsValidUtf8(id.get_ref<const std::string&>()) ||
        text::CountCodePoints(id.get_ref<const std::string&>()) > kMaxLayoutIdChars) {
      return InvalidArgument("each tile needs the id of a board");
    }
    if (!IsIntIn(t.value("x", json()), 0, kMaxLayoutColumn) ||
        !IsIntIn(t.value("y", json()), 0, kMaxLayoutRow)) {
      return InvalidArgument("a tile's x is 0 to " + std::to_string(kMaxLayoutColumn) +
                             " and its y 0 to " + std::to_string(kMaxLayoutRow));
    }
    if (!IsIntIn(t.value("w", json()), 1, kMaxLayoutSpan) ||
        !IsIntIn(t.value("h", json()), 1, kMaxLayoutSpan)) {
      return InvalidArgument("a tile's w and h are 1 to " + std::to_string(kMaxLayoutSpan));
    }
    if (!ids.insert(id.get<std::string>()).second) {
      return InvalidArgument("board " + id.get<std::string>() + " has two tiles");
    }
  }
  return Status::Ok();
}

void RegisterLayoutMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kLayoutRecordKind, registry);
  // The checked create and restore replace the generic ones.
  registry.Register("board_layout.create", CreateLayout);
  registry.Register("board_layout.restore", RestoreLayout);
}

}  // namespace ensemble::core::boards
