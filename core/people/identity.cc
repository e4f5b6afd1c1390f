#include "core/people/identity.h"

#include <string>

#include "core/base/id.h"
#include "core/people/person.h"
#include "core/records/record_mutators.h"
#include "core/text/utf8.h"

namespace ensemble::core::people {

using nlohmann::json;
using store::Value;

namespace {

const records::FieldSpec kIdentityFields[] = {
    {.name = "person", .type = records::FieldType::kId, .required = true},
    {.name = "identity_kind",
     .type = records::FieldType::kEnum,
     .required = true,
     .values = kIdentityKinds},
    {.name = "value", .required = true, .trim = true, .max_chars = kMaxIdentityValueChars},
    {.name = "source", .trim = true, .max_chars = kMaxIdentitySourceChars},
    {.name = "verified", .type = records::FieldType::kInt, .min = 0, .max = 1},
};

bool IsKnownKind(std::string_view kind) {
  for (std::string_view k : kIdentityKinds) {
    if (k == kind) return true;
  }
  return false;
}

bool IsProviderIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == ':';
}

// The live identity of (space, kind, value) other than `except`, as
// {id, person}; value already normalized.
Result<std::optional<json>> FindLiveIdentity(store::Database& db, const std::string& space_id,
                                             const std::string& kind, const std::string& value,
                                             const std::string& except) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT id, person FROM person_identities WHERE space_id = $1 AND identity_kind = "
               "$2 AND value = $3 AND deleted = 0 AND id <> $4 ORDER BY id LIMIT 1",
               {Value(space_id), Value(kind), Value(value), Value(except)}));
  if (rows.empty()) return std::optional<json>();
  return std::optional<json>(
      json{{"id", store::AsText(rows.rows[0][0])}, {"person", store::AsText(rows.rows[0][1])}});
}

// ALREADY_EXISTS when (kind, value) already names a person of the space
// through another identity or (an address) a person's own email; `person`
// (the identity's) holding it already is refused as a repeat.
Status CheckValueFree(sync::MutationContext& ctx, const std::string& space_id,
                      const std::string& kind, const std::string& value,
                      const std::string& identity_id, const std::string& person) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto taken,
                            FindLiveIdentity(ctx.db(), space_id, kind, value, identity_id));
  std::optional<std::string> holder;
  if (taken) holder = (*taken)["person"].get<std::string>();
  if (!holder && kind == "email") {
    ENSEMBLE_ASSIGN_OR_RETURN(holder, FindPersonByPrimaryEmail(ctx.db(), space_id, value));
  }
  if (!holder) return Status::Ok();
  ctx.details() = json{{"person", *holder}};
  if (*holder == person) {
    return Status(codes::kAlreadyExists, "this person already has that " + kind + " identity");
  }
  return Status(codes::kAlreadyExists,
                "that " + kind +
                    " identity already belongs to a person in this space; merge the "
                    "two people instead");
}

}  // namespace

const records::RecordKind kIdentityRecordKind = {kIdentityKind, kIdentityTable, kIdentityFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreatePersonIdentitiesTable = {
    22, "create person identities",
    "CREATE TABLE person_identities ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " person TEXT NOT NULL,"
    " identity_kind TEXT NOT NULL,"
    " value TEXT NOT NULL,"
    " source TEXT NOT NULL DEFAULT '',"
    " verified BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    // Not UNIQUE: a replica writes a pull's rows one at a time, so a value
    // passing from one identity to another may be held twice for a moment;
    // the mutators keep live values unique.
    "CREATE INDEX person_identities_value ON person_identities (space_id, identity_kind, value);"
    "CREATE INDEX person_identities_person ON person_identities (person);"
    "CREATE INDEX person_identities_row_version ON person_identities (row_version);"};

Result<std::string> NormalizeIdentityValue(std::string_view kind, std::string_view value) {
  if (!IsKnownKind(kind))
    return InvalidArgument("unknown identity kind '" + std::string(kind) + "'");
  std::string out(text::Trim(value));
  if (out.empty()) return InvalidArgument("an identity needs a value");
  if (kind == "email") {
    out = NormalizeEmail(out);
    const size_t at = out.find('@');
    if (at == 0 || at == std::string::npos || at + 1 == out.size() ||
        out.find_first_of(" \t\r\n") != std::string::npos) {
      return InvalidArgument("'" + out + "' is not an email address");
    }
    return out;
  }
  for (char& c : out) {
    if (!IsProviderIdChar(c)) {
      return InvalidArgument("a " + std::string(kind) +
                             " id holds only letters, digits, '-', '_' and ':'");
    }
    // Slack spells its ids in capitals; Teams (Entra object ids) and Linear
    // use lower-case UUIDs.
    if (kind == "slack" && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (kind != "slack" && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<std::optional<std::string>> FindPersonByIdentity(store::Database& db,
                                                        const std::string& space_id,
                                                        std::string_view kind,
                                                        std::string_view value) {
  Result<std::string> normalized = NormalizeIdentityValue(kind, value);
  if (!normalized.ok()) return std::optional<std::string>();
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT i.person FROM person_identities i JOIN people p ON p.id = i.person WHERE "
               "i.space_id = $1 AND i.identity_kind = $2 AND i.value = $3 AND i.deleted = 0 AND "
               "p.deleted = 0 AND p.space_id = $1 ORDER BY i.id LIMIT 1",
               {Value(space_id), Value(std::string(kind)), Value(*normalized)}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(store::AsText(rows.rows[0][0]));
}

Status CreateIdentity(sync::MutationContext& ctx, const json& args) {
  // Well-formedness first (CreateRecord words it), on a copy holding the
  // normalized value.
  json normalized = args;
  const std::string kind = records::StringMember(args, "identity_kind");
  if (args.is_object() && args.contains("value") && args["value"].is_string() &&
      IsKnownKind(kind)) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string value,
                              NormalizeIdentityValue(kind, args["value"].get<std::string>()));
    normalized["value"] = value;
  }
  const std::string space = records::StringMember(args, "spaceId");
  const std::string person = records::StringMember(args, "person");
  if (!space.empty() && IsValidId(person)) {
    ENSEMBLE_RETURN_IF_ERROR(
        records::CheckLiveRecord(ctx.db(), kPersonKind.synced_table(), person, space));
  }
  if (!space.empty() && IsKnownKind(kind) && normalized.contains("value") &&
      normalized["value"].is_string()) {
    ENSEMBLE_RETURN_IF_ERROR(CheckValueFree(ctx, space, kind,
                                            normalized["value"].get<std::string>(),
                                            records::StringMember(args, "id"), person));
  }
  return records::CreateRecord(kIdentityRecordKind, ctx, normalized);
}

Status UpdateIdentity(sync::MutationContext& ctx, const json& args) {
  if (args.is_object() && args.contains("fields") && args["fields"].is_object()) {
    for (const char* kept : {"person", "identity_kind", "value"}) {
      if (args["fields"].contains(kept)) {
        return InvalidArgument(
            "an identity keeps its person, kind and value (merge people to move one, or delete "
            "it and add another)");
      }
    }
  }
  return records::UpdateRecord(kIdentityRecordKind, ctx, args);
}

Status RestoreIdentity(sync::MutationContext& ctx, const json& args) {
  const std::string id = records::StringMember(args, "id");
  if (IsValidId(id)) {
    ENSEMBLE_ASSIGN_OR_RETURN(auto row, records::ReadRecord(kIdentityRecordKind, ctx.db(), id));
    if (row && (*row)["deleted"] != 0) {
      ENSEMBLE_RETURN_IF_ERROR(CheckValueFree(
          ctx, (*row)["space_id"].get<std::string>(), (*row)["identity_kind"].get<std::string>(),
          (*row)["value"].get<std::string>(), id, (*row)["person"].get<std::string>()));
    }
  }
  return records::RestoreRecord(kIdentityRecordKind, ctx, args);
}

void RegisterIdentityMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kIdentityRecordKind, registry);
  registry.Register("person_identity.create", CreateIdentity);
  registry.Register("person_identity.update", UpdateIdentity);
  registry.Register("person_identity.restore", RestoreIdentity);
}

}  // namespace ensemble::core::people
