#include "core/desk/desk_list.h"

#include <optional>
#include <string>
#include <unordered_map>

#include "core/records/record_mutators.h"

namespace ensemble::core::desk {

using nlohmann::json;
using store::Value;

namespace {

const records::FieldSpec kListFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxDeskListTitleChars},
};

const records::FieldSpec kItemFields[] = {
    {.name = "list", .type = records::FieldType::kId, .required = true},
    {.name = "text", .required = true, .trim = true, .max_chars = kMaxDeskItemChars},
    {.name = "done", .type = records::FieldType::kInt, .min = 0, .max = 1},
    {.name = "position", .type = records::FieldType::kInt, .min = 0, .max = kMaxDeskItemPosition},
};

bool IsDeleted(const json& row) { return row.value("deleted", int64_t{0}) != 0; }

// The list a new line goes on: live, of the line's space, with room.
Status CheckListTakesALine(store::Database& db, const std::string& list_id,
                           const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> list,
                            records::ReadRecord(kListRecordKind, db, list_id));
  // Another space's list answers as a missing one: an id is no evidence of
  // access.
  if (!list || list->value("space_id", "") != space_id) {
    return Status(codes::kNotFound, "no desk list with id " + list_id);
  }
  if (IsDeleted(*list)) {
    return Status(codes::kFailedPrecondition,
                  "the list is in Trash; restore it before adding to it");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows count,
      db.Query("SELECT COUNT(*) FROM desk_list_items WHERE list = $1 AND deleted = 0",
               {Value(list_id)}));
  if (store::AsInt(count.rows[0][0]) >= static_cast<int64_t>(kMaxDeskListItems)) {
    return Status(codes::kLimitReached, "a desk list holds at most " +
                                            std::to_string(kMaxDeskListItems) +
                                            " lines; remove some or start another list");
  }
  return Status::Ok();
}

}  // namespace

Status CreateList(sync::MutationContext& ctx, const json& args) {
  if (args.is_object() && args.contains("spaceId") && args["spaceId"].is_string()) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows count,
        ctx.db().Query("SELECT COUNT(*) FROM desk_lists WHERE space_id = $1 AND deleted = 0",
                       {Value(args["spaceId"].get<std::string>())}));
    if (store::AsInt(count.rows[0][0]) >= static_cast<int64_t>(kMaxDeskLists)) {
      return Status(codes::kLimitReached, "a desk holds at most " + std::to_string(kMaxDeskLists) +
                                              " lists; remove one first");
    }
  }
  return records::CreateRecord(kListRecordKind, ctx, args);
}

const records::RecordKind kListRecordKind = {kListKind, kListTable, kListFields};
const records::RecordKind kItemRecordKind = {kItemKind, kItemTable, kItemFields};

const store::Migration kCreateDeskListTables = {
    23, "create desk lists",
    "CREATE TABLE desk_lists ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX desk_lists_space ON desk_lists (space_id, id);"
    "CREATE INDEX desk_lists_row_version ON desk_lists (row_version);"
    "CREATE TABLE desk_list_items ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " list TEXT NOT NULL,"
    " text TEXT NOT NULL,"
    " done BIGINT NOT NULL DEFAULT 0,"
    " position BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX desk_list_items_list ON desk_list_items (list, position);"
    "CREATE INDEX desk_list_items_row_version ON desk_list_items (row_version);"};

Status CreateItem(sync::MutationContext& ctx, const json& args) {
  // Shapes first, worded as every kind words them; then what needs the store.
  if (!args.is_object() || !args.contains("spaceId") || !args["spaceId"].is_string()) {
    return records::CreateRecord(kItemRecordKind, ctx, args);
  }
  ENSEMBLE_RETURN_IF_ERROR(records::CheckCreateFields(kItemRecordKind, args));
  ENSEMBLE_RETURN_IF_ERROR(CheckListTakesALine(ctx.db(), args["list"].get<std::string>(),
                                               args["spaceId"].get<std::string>()));
  return records::CreateRecord(kItemRecordKind, ctx, args);
}

Status UpdateItem(sync::MutationContext& ctx, const json& args) {
  if (args.is_object() && args.contains("fields") && args["fields"].is_object() &&
      args["fields"].contains("list")) {
    return InvalidArgument("a line keeps its list; remove it and add it to the other list");
  }
  return records::UpdateRecord(kItemRecordKind, ctx, args);
}

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kListRecordKind, registry);
  records::RegisterRecordMutators(kItemRecordKind, registry);
  // The checked create and update replace the generic ones.
  registry.Register("desk_list.create", CreateList);
  registry.Register("desk_list_item.create", CreateItem);
  registry.Register("desk_list_item.update", UpdateItem);
}

namespace {

// One line as ReadDeskLists and ReadDeskLines give it; `row` is id, text,
// done, position from column `first` on.
json LineOf(const std::vector<store::Value>& row, size_t first) {
  return {{"id", store::AsText(row[first])},
          {"text", store::AsText(row[first + 1])},
          {"done", store::AsInt(row[first + 2]) != 0},
          {"position", store::AsInt(row[first + 3])}};
}

// Lines order by position, then oldest first.
constexpr std::string_view kLineOrder = "position, created_at, id";

}  // namespace

Result<json> ReadDeskLists(store::Database& db, const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows lists,
      db.Query("SELECT id, title FROM desk_lists WHERE space_id = $1 AND deleted = 0"
               " ORDER BY created_at, id",
               {Value(space_id)}));
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows items,
                            db.Query("SELECT list, id, text, done, position FROM desk_list_items"
                                     " WHERE space_id = $1 AND deleted = 0 ORDER BY list, " +
                                         std::string(kLineOrder),
                                     {Value(space_id)}));
  std::unordered_map<std::string, json> lines_of;
  for (size_t j = 0; j < items.size(); ++j) {
    json& lines = lines_of[store::AsText(items.rows[j][0])];
    if (lines.is_null()) lines = json::array();
    lines.push_back(LineOf(items.rows[j], 1));
  }
  json out = json::array();
  for (size_t i = 0; i < lists.size(); ++i) {
    const std::string id = store::AsText(lists.rows[i][0]);
    auto it = lines_of.find(id);
    out.push_back({{"id", id},
                   {"title", store::AsText(lists.rows[i][1])},
                   {"items", it == lines_of.end() ? json::array() : std::move(it->second)}});
  }
  return out;
}

Result<json> ReadDeskLines(store::Database& db, const std::string& space_id,
                           const std::string& list_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows items, db.Query("SELECT id, text, done, position FROM desk_list_items"
                                  " WHERE space_id = $1 AND list = $2 AND deleted = 0 ORDER BY " +
                                      std::string(kLineOrder),
                                  {Value(space_id), Value(list_id)}));
  json out = json::array();
  for (size_t j = 0; j < items.size(); ++j) out.push_back(LineOf(items.rows[j], 0));
  return out;
}

}  // namespace ensemble::core::desk
