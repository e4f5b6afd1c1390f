#include "core/records/record_mutators.h"

#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/sync/row_codec.h"
#include "core/sync/space_records.h"

namespace ensemble::core::records {

using nlohmann::json;
using store::Value;

namespace {

std::string MutatorName(const RecordKind& kind, std::string_view verb) {
  return std::string(kind.kind) + "." + std::string(verb);
}

// Refuses a non-object or any argument outside `allowed` (plus the kind's
// fields when `fields_allowed`).
Status CheckArgNames(const RecordKind& kind, std::string_view verb, const json& args,
                     std::initializer_list<std::string_view> allowed, bool fields_allowed) {
  const std::string name = MutatorName(kind, verb);
  if (!args.is_object()) return InvalidArgument(name + " takes an object");
  for (const auto& [key, _] : args.items()) {
    bool known = fields_allowed && kind.FindField(key);
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) return InvalidArgument("unknown argument '" + key + "' for " + name);
  }
  return Status::Ok();
}

Status CheckIdArg(const json& args) {
  if (!args.contains("id") || !args["id"].is_string() ||
      !IsValidId(args["id"].get_ref<const std::string&>())) {
    return InvalidArgument("id must be a record id");
  }
  return Status::Ok();
}

Status NotFound(const RecordKind& kind, const std::string& id) {
  return Status(codes::kNotFound, "no " + std::string(kind.kind) + " with id " + id);
}

// The SET clause that stamps the server change on an updated row (appending
// its parameter), or nothing on a client replica.
std::string StampRowVersion(const sync::MutationContext& ctx, std::vector<Value>& params) {
  if (ctx.row_version() == 0) return "";
  params.push_back(Value(ctx.row_version()));
  return ", row_version = $" + std::to_string(params.size());
}

bool IsDeleted(const json& row) { return row.value("deleted", int64_t{0}) != 0; }

// Sets `deleted` to `to` and bumps the version, or does nothing when the
// record already is so.
Status SetDeleted(const RecordKind& kind, sync::MutationContext& ctx, const json& args,
                  std::string_view verb, bool to) {
  ENSEMBLE_RETURN_IF_ERROR(CheckArgNames(kind, verb, args, {"id"}, false));
  ENSEMBLE_RETURN_IF_ERROR(CheckIdArg(args));
  const std::string& id = args["id"].get_ref<const std::string&>();
  ENSEMBLE_ASSIGN_OR_RETURN(auto row, ReadRecord(kind, ctx.db(), id));
  if (!row) return NotFound(kind, id);
  // Idempotent: two devices deleting the same record is not a failure to
  // show, and a record already in that state is not written again.
  if (IsDeleted(*row) == to) return Status::Ok();
  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kind.kind, id));
  std::vector<Value> params = {Value(id), Value(int64_t{to ? 1 : 0}), Value(ctx.now_ms())};
  const std::string stamp = StampRowVersion(ctx, params);
  return ctx.db().Exec("UPDATE " + std::string(kind.table) +
                           " SET deleted = $2, version = version + 1, updated_at = $3" + stamp +
                           " WHERE id = $1",
                       params);
}

}  // namespace

Result<std::optional<json>> ReadRecord(const RecordKind& kind, store::Database& db,
                                       const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto row, sync::ReadRow(db, kind.table, id));
  if (row) {
    for (const FieldSpec& f : kind.fields) {
      if (!StoredAsJsonText(f.type)) continue;
      auto it = row->find(std::string(f.name));
      if (it != row->end()) *it = FromColumn(f, *it);
    }
  }
  return row;
}

json FieldsOf(const RecordKind& kind, const json& row) {
  json out = json::object();
  for (const FieldSpec& f : kind.fields) {
    std::string name(f.name);
    out[name] = row.contains(name) ? row[name] : json(nullptr);
  }
  return out;
}

Status CheckCreateFields(const RecordKind& kind, const json& args) {
  for (const FieldSpec& f : kind.fields) {
    const std::string name(f.name);
    if (args.is_object() && args.contains(name)) {
      ENSEMBLE_RETURN_IF_ERROR(CheckField(f, args[name]));
    } else if (f.required) {
      return InvalidArgument(name + " is required");
    }
  }
  return Status::Ok();
}

Status CreateRecord(const RecordKind& kind, sync::MutationContext& ctx, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(CheckArgNames(kind, "create", args, {"id", "spaceId"}, true));
  ENSEMBLE_RETURN_IF_ERROR(CheckIdArg(args));
  if (!args.contains("spaceId") || !args["spaceId"].is_string() ||
      args["spaceId"].get_ref<const std::string&>().empty() ||
      args["spaceId"].get_ref<const std::string&>().size() > kMaxSpaceIdChars) {
    return InvalidArgument("spaceId must name a space");
  }
  const std::string& id = args["id"].get_ref<const std::string&>();
  std::string columns = "id, space_id";
  std::string placeholders = "$1, $2";
  std::vector<Value> params = {Value(id), Value(args["spaceId"].get<std::string>())};
  for (const FieldSpec& f : kind.fields) {
    const std::string name(f.name);
    json value;
    if (args.contains(name)) {
      ENSEMBLE_RETURN_IF_ERROR(CheckField(f, args[name]));
      value = NormalizeField(f, args[name]);
    } else if (f.required) {
      return InvalidArgument(name + " is required");
    } else {
      value = DefaultField(f);
    }
    params.push_back(sync::JsonToValue(ToColumn(f, value)));
    columns += ", \"" + name + "\"";  // quoted: "column" is reserved in PostgreSQL
    placeholders += ", $" + std::to_string(params.size());
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kind.kind, id));
  params.push_back(Value(ctx.now_ms()));
  const std::string now = "$" + std::to_string(params.size());
  params.push_back(Value(ctx.row_version()));
  const std::string row_version = "$" + std::to_string(params.size());
  // On the server the space's count goes up with the create and is read
  // back by it, so the cap costs no round trip of its own; the creates of a
  // push after its first in a space are counted in memory (space_records.h).
  sync::MutationContext::RecordCounter* counter = ctx.record_counter();
  const std::string& space_id = args["spaceId"].get_ref<const std::string&>();
  const bool count_in_store = counter && counter->CountsInStore(space_id);
  if (count_in_store) {
    ENSEMBLE_RETURN_IF_ERROR(ctx.db().ExecDeferred(sync::kCountRecordSql, {params[1]}));
  }
  // One statement checks and writes (a round trip saved on the server); an
  // id taken, even by a record in Trash, inserts nothing and returns no row.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows inserted,
      ctx.db().Query(
          "INSERT INTO " + std::string(kind.table) + " (" + columns +
              ", version, deleted, created_at, updated_at, row_version) VALUES (" + placeholders +
              ", 1, 0, " + now + ", " + now + ", " + row_version +
              ") ON CONFLICT (id) DO NOTHING RETURNING id" +
              (count_in_store ? std::string(", ") + sync::kKeptRecordsSql : std::string()),
          params));
  if (inserted.empty()) {
    return Status(codes::kAlreadyExists,
                  "a " + std::string(kind.kind) + " with id " + id + " already exists");
  }
  if (!counter) return Status::Ok();
  std::optional<int64_t> kept;
  if (count_in_store && !store::IsNull(inserted.rows[0][1])) {
    kept = store::AsInt(inserted.rows[0][1]);
  }
  return counter->Created(ctx.db(), space_id, kept);
}

Status UpdateRecord(const RecordKind& kind, sync::MutationContext& ctx, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(
      CheckArgNames(kind, "update", args, {"id", "fields", "base", "expectedVersion"}, false));
  ENSEMBLE_RETURN_IF_ERROR(CheckIdArg(args));
  if (!args.contains("fields") || !args["fields"].is_object() || args["fields"].empty()) {
    return InvalidArgument("fields must name at least one field to change");
  }
  const json& fields = args["fields"];
  const json base = args.value("base", json::object());
  if (!base.is_object()) return InvalidArgument("base must be an object");
  const json expected = args.value("expectedVersion", json(nullptr));
  if (!expected.is_null() && (!expected.is_number_integer() || expected.get<int64_t>() < 1)) {
    return InvalidArgument("expectedVersion must be a version number (1 or more)");
  }
  for (const auto& [name, value] : fields.items()) {
    const FieldSpec* f = kind.FindField(name);
    if (!f) return InvalidArgument("unknown " + std::string(kind.kind) + " field '" + name + "'");
    ENSEMBLE_RETURN_IF_ERROR(CheckField(*f, value));
  }
  for (const auto& [name, value] : base.items()) {
    if (!fields.contains(name))
      return InvalidArgument("base names '" + name + "', which is not changed");
    Status st = CheckField(*kind.FindField(name), value);
    if (!st.ok()) return InvalidArgument("base." + name + ": " + st.message());
  }

  const std::string& id = args["id"].get_ref<const std::string&>();
  ENSEMBLE_ASSIGN_OR_RETURN(auto found, ReadRecord(kind, ctx.db(), id));
  if (!found) return NotFound(kind, id);
  const json& row = *found;
  const int64_t version = row.value("version", int64_t{0});
  if (IsDeleted(row)) {
    // Reported with the record's values so the person can restore it and
    // apply the edit again, rather than the edit vanishing.
    ctx.details() = json{{"current", FieldsOf(kind, row)}, {"deleted", true}, {"version", version}};
    return Status(codes::kRecordDeleted,
                  "this " + std::string(kind.kind) + " is in Trash; restore it to apply the edit");
  }

  // Without _base, the version the edit was based on stands in for it: any
  // change since then is a conflict, since which fields moved is unknown.
  if (base.empty() && !expected.is_null() && expected.get<int64_t>() != version) {
    ctx.details() = json{{"current", FieldsOf(kind, row)}, {"version", version}};
    return Status(codes::kVersionConflict, "this " + std::string(kind.kind) +
                                               " changed since you read it; read it again before "
                                               "editing");
  }

  // The _base rule: disjoint fields merge; an overwritten concurrent change conflicts.
  json conflicts = json::array();
  for (const auto& [name, value] : fields.items()) {
    if (!base.contains(name)) continue;
    const FieldSpec& f = *kind.FindField(name);
    const json& current = row[name];
    if (current != NormalizeField(f, base[name]) && current != NormalizeField(f, value)) {
      conflicts.push_back(name);
    }
  }
  if (!conflicts.empty()) {
    json current = json::object();
    for (const auto& name : conflicts)
      current[name.get<std::string>()] = row[name.get<std::string>()];
    ctx.details() = json{{"fields", conflicts}, {"current", current}, {"version", version}};
    return Status(codes::kSaveConflict, "this " + std::string(kind.kind) +
                                            " was changed elsewhere since you started editing it");
  }

  return WriteFields(kind, ctx, id, fields);
}

Status WriteFields(const RecordKind& kind, sync::MutationContext& ctx, const std::string& id,
                   const json& fields) {
  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kind.kind, id));
  std::string sets;
  std::vector<Value> params = {Value(id)};
  for (const auto& [name, value] : fields.items()) {
    const FieldSpec* f = kind.FindField(name);
    if (!f) return InvalidArgument("unknown " + std::string(kind.kind) + " field '" + name + "'");
    params.push_back(sync::JsonToValue(ToColumn(*f, NormalizeField(*f, value))));
    sets += "\"" + name + "\" = $" + std::to_string(params.size()) + ", ";
  }
  params.push_back(Value(ctx.now_ms()));
  const std::string updated_at = "$" + std::to_string(params.size());
  const std::string stamp = StampRowVersion(ctx, params);
  return ctx.db().Exec("UPDATE " + std::string(kind.table) + " SET " + sets +
                           "version = version + 1, updated_at = " + updated_at + stamp +
                           " WHERE id = $1",
                       params);
}

Status DeleteRecord(const RecordKind& kind, sync::MutationContext& ctx, const json& args) {
  return SetDeleted(kind, ctx, args, "delete", true);
}

Status RestoreRecord(const RecordKind& kind, sync::MutationContext& ctx, const json& args) {
  return SetDeleted(kind, ctx, args, "restore", false);
}

void RegisterRecordMutators(const RecordKind& kind, sync::MutatorRegistry& registry) {
  const RecordKind* k = &kind;
  registry.Register(MutatorName(kind, "create"), [k](sync::MutationContext& ctx, const json& a) {
    return CreateRecord(*k, ctx, a);
  });
  registry.Register(MutatorName(kind, "update"), [k](sync::MutationContext& ctx, const json& a) {
    return UpdateRecord(*k, ctx, a);
  });
  registry.Register(MutatorName(kind, "delete"), [k](sync::MutationContext& ctx, const json& a) {
    return DeleteRecord(*k, ctx, a);
  });
  registry.Register(MutatorName(kind, "restore"), [k](sync::MutationContext& ctx, const json& a) {
    return RestoreRecord(*k, ctx, a);
  });
}

Status CheckLiveRecord(store::Database& db, sync::SyncedTable table, const std::string& id,
                       const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT 1 FROM " + std::string(table.table) +
                                         " WHERE id = $1 AND space_id = $2 AND deleted = 0",
                                     {Value(id), Value(space_id)}));
  if (rows.empty()) {
    return Status(codes::kNotFound, "no " + std::string(table.kind) + " with id " + id);
  }
  return Status::Ok();
}

}  // namespace ensemble::core::records
