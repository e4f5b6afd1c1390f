#include "core/people/merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "core/base/id.h"
#include "core/people/identity.h"
#include "core/people/person.h"
#include "core/projects/project.h"
#include "core/records/record_mutators.h"
#include "core/tasks/task.h"
#include "core/text/unicode_normalize.h"

namespace ensemble::core::people {

using nlohmann::json;
using store::Value;

namespace {

Status NoPerson(const std::string& id) {
  return Status(codes::kNotFound, "no person with id " + id);
}

bool IsBlank(const json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty());
}

// Records whose id list `field` holds `from`: `from` becomes `into`, once.
Status MoveListLinks(sync::MutationContext& ctx, const records::RecordKind& kind,
                     std::string_view field, const std::string& space_id, const std::string& from,
                     const std::string& into) {
  // LIKE narrows to rows whose stored JSON text mentions the id; each is
  // then read and checked exactly ('_' in a pattern matches any character).
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db().Query("SELECT id FROM " + std::string(kind.table) + " WHERE space_id = $1 AND \"" +
                         std::string(field) + "\" LIKE $2 ORDER BY id",
                     {Value(space_id), Value("%\"" + from + "\"%")}));
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string id = store::AsText(rows.rows[i][0]);
    ENSEMBLE_ASSIGN_OR_RETURN(auto row, records::ReadRecord(kind, ctx.db(), id));
    if (!row || !(*row)[field].is_array()) continue;
    json list = json::array();
    bool moved = false;
    for (const json& v : (*row)[field]) {
      const bool is_from = v == from;
      moved = moved || is_from;
      const json next = is_from ? json(into) : v;
      if (std::find(list.begin(), list.end(), next) == list.end()) list.push_back(next);
    }
    if (moved) {
      ENSEMBLE_RETURN_IF_ERROR(records::WriteFields(kind, ctx, id, json{{field, list}}));
    }
  }
  return Status::Ok();
}

// Records linked to `from` by (kind_field = 'person', id_field = from).
Status MoveRecordLinks(sync::MutationContext& ctx, const records::RecordKind& kind,
                       std::string_view kind_field, std::string_view id_field,
                       const std::string& space_id, const std::string& from,
                       const std::string& into) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db().Query("SELECT id FROM " + std::string(kind.table) + " WHERE space_id = $1 AND " +
                         std::string(kind_field) + " = $2 AND " + std::string(id_field) +
                         " = $3 ORDER BY id",
                     {Value(space_id), Value(std::string(kKind)), Value(from)}));
  for (size_t i = 0; i < rows.size(); ++i) {
    ENSEMBLE_RETURN_IF_ERROR(
        records::WriteFields(kind, ctx, store::AsText(rows.rows[i][0]), json{{id_field, into}}));
  }
  return Status::Ok();
}

Status MoveIdentities(sync::MutationContext& ctx, const std::string& space_id,
                      const std::string& from, const std::string& into) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db().Query("SELECT id FROM person_identities WHERE space_id = $1 AND person = $2 "
                     "ORDER BY id",
                     {Value(space_id), Value(from)}));
  for (size_t i = 0; i < rows.size(); ++i) {
    ENSEMBLE_RETURN_IF_ERROR(records::WriteFields(
        kIdentityRecordKind, ctx, store::AsText(rows.rows[i][0]), json{{"person", into}}));
  }
  return Status::Ok();
}

// `from`'s address, when `into` has another, stays findable as an identity
// of `into` (unless something already holds it).
Status KeepAddress(sync::MutationContext& ctx, const json& from, const std::string& space_id,
                   const std::string& into) {
  const std::string address = NormalizeEmail(from["email"].get<std::string>());
  // Another live person's own address or identity stays theirs.
  ENSEMBLE_ASSIGN_OR_RETURN(auto holder, FindPersonByEmail(ctx.db(), space_id, address));
  if (holder || !NormalizeIdentityValue("email", address).ok()) return Status::Ok();
  // The version in the salt: a person merged, restored and merged again
  // leaves a new identity, not the first one's id.
  const std::string salt = "email@" + std::to_string(from["version"].get<int64_t>());
  return records::CreateRecord(kIdentityRecordKind, ctx,
                               json{{"id", DerivedId(from["id"].get<std::string>(), salt)},
                                    {"spaceId", space_id},
                                    {"person", into},
                                    {"identity_kind", "email"},
                                    {"value", address},
                                    {"source", "merge"}});
}

// The kept person's distinct_from once the merged one's is added, without
// either of the two; null when it does not change. Read after
// MoveListLinks, which may have written the kept person's list.
Result<json> KeptDistinctFrom(sync::MutationContext& ctx, const json& from,
                              const std::string& into_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto into, records::ReadRecord(kPersonKind, ctx.db(), into_id));
  const json before = (*into)["distinct_from"];
  json list = json::array();
  for (const json* source : {&before, &from["distinct_from"]}) {
    for (const json& v : *source) {
      if (v == into_id || v == from["id"]) continue;
      if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
    }
  }
  // The oldest marks are kept when the two lists exceed the cap together.
  if (list.size() > kMaxDistinctPeople) list.erase(list.begin() + kMaxDistinctPeople, list.end());
  if (list == before) return json(nullptr);
  return list;
}

// Case, width and spacing aside: "Ana  LIMA" and "ana lima" are one key.
std::string NameKey(std::string_view name) {
  std::u32string text;
  text::DecodeUtf8(text::ToNfkc(name), &text);
  std::string key;
  bool gap = false;
  for (char32_t c : text) {
    if (!text::IsWordCodePoint(c)) {
      gap = !key.empty();
      continue;
    }
    if (gap) key.push_back(' ');
    gap = false;
    text::AppendUtf8(text::SimpleLowercase(c), &key);
  }
  return key;
}

}  // namespace

Status MergePerson(sync::MutationContext& ctx, std::span<const RecordLink> links,
                   const json& args) {
  if (!args.is_object()) return InvalidArgument("person.merge takes {id, into}");
  for (const auto& [name, value] : args.items()) {
    if (name != "id" && name != "into") {
      return InvalidArgument("person.merge takes {id, into}; '" + name + "' is not one of them");
    }
  }
  for (const char* name : {"id", "into"}) {
    if (!args.contains(name) || !args[name].is_string() ||
        !IsValidId(args[name].get_ref<const std::string&>())) {
      return InvalidArgument(std::string(name) + " must be a person id");
    }
  }
  const std::string id = args["id"].get<std::string>();
  const std::string into_id = args["into"].get<std::string>();
  if (id == into_id) return InvalidArgument("a person cannot be merged into themselves");

  ENSEMBLE_ASSIGN_OR_RETURN(auto from, records::ReadRecord(kPersonKind, ctx.db(), id));
  if (!from || (*from)["deleted"] != 0) return NoPerson(id);
  const std::string space_id = (*from)["space_id"].get<std::string>();
  ENSEMBLE_ASSIGN_OR_RETURN(auto into, records::ReadRecord(kPersonKind, ctx.db(), into_id));
  // Another space's person is answered as missing: an id is never evidence.
  if (!into || (*into)["deleted"] != 0 || (*into)["space_id"] != space_id) {
    return NoPerson(into_id);
  }

  json fill = json::object();
  for (const char* field : {"email", "role", "team", "relationship"}) {
    if (IsBlank((*into)[field]) && !IsBlank((*from)[field])) fill[field] = (*from)[field];
  }
  const bool other_address = !IsBlank((*from)["email"]) && !fill.contains("email") &&
                             NormalizeEmail((*from)["email"].get<std::string>()) !=
                                 NormalizeEmail((*into)["email"].get<std::string>());

  ENSEMBLE_RETURN_IF_ERROR(MoveIdentities(ctx, space_id, id, into_id));
  ENSEMBLE_RETURN_IF_ERROR(MoveListLinks(ctx, tasks::kTaskKind, "people", space_id, id, into_id));
  ENSEMBLE_RETURN_IF_ERROR(
      MoveListLinks(ctx, projects::kProjectKind, "people", space_id, id, into_id));
  for (const RecordLink& link : links) {
    ENSEMBLE_RETURN_IF_ERROR(
        MoveRecordLinks(ctx, *link.kind, link.kind_field, link.id_field, space_id, id, into_id));
  }
  // "Not the same as the merged person" now means the kept one.
  ENSEMBLE_RETURN_IF_ERROR(MoveListLinks(ctx, kPersonKind, "distinct_from", space_id, id, into_id));
  ENSEMBLE_ASSIGN_OR_RETURN(json distinct, KeptDistinctFrom(ctx, *from, into_id));
  if (!distinct.is_null()) fill["distinct_from"] = std::move(distinct);
  if (!fill.empty())
    ENSEMBLE_RETURN_IF_ERROR(records::WriteFields(kPersonKind, ctx, into_id, fill));
  // Trash before the address moves, so the merged person no longer holds it.
  ENSEMBLE_RETURN_IF_ERROR(records::DeleteRecord(kPersonKind, ctx, json{{"id", id}}));
  if (other_address) ENSEMBLE_RETURN_IF_ERROR(KeepAddress(ctx, *from, space_id, into_id));
  return Status::Ok();
}

void RegisterMergeMutator(sync::MutatorRegistry& registry, std::span<const RecordLink> links) {
  registry.Register("person.merge", [links](sync::MutationContext& ctx, const json& args) {
    return MergePerson(ctx, links, args);
  });
}

Result<std::vector<MergeSuggestion>> FindMergeSuggestions(store::Database& db,
                                                          const std::string& space_id) {
  // Oldest first, so the person kept is the one saved first.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows people,
      db.Query("SELECT id, name, email, distinct_from FROM people WHERE space_id = $1 AND "
               "deleted = 0 ORDER BY created_at, id",
               {Value(space_id)}));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows addresses,
      db.Query("SELECT i.person, i.value FROM person_identities i JOIN people p ON p.id = "
               "i.person WHERE i.space_id = $1 AND i.identity_kind = 'email' AND i.deleted = 0 "
               "AND p.deleted = 0",
               {Value(space_id)}));
  std::map<std::string, size_t> order;  // person id -> position, oldest first
  std::map<std::string, std::vector<std::string>> by_address;
  std::map<std::string, std::vector<std::string>> by_name;
  // Pairs someone said are two people, either way round.
  std::set<std::pair<std::string, std::string>> distinct;
  const records::FieldSpec& distinct_field = *kPersonKind.FindField("distinct_from");
  for (size_t i = 0; i < people.size(); ++i) {
    const std::string id = store::AsText(people.rows[i][0]);
    order[id] = i;
    for (const json& other :
         records::FromColumn(distinct_field, json(store::AsText(people.rows[i][3])))) {
      if (!other.is_string()) continue;
      distinct.insert({id, other.get<std::string>()});
      distinct.insert({other.get<std::string>(), id});
    }
    by_name[NameKey(store::AsText(people.rows[i][1]))].push_back(id);
    if (!store::IsNull(people.rows[i][2])) {
      const std::string email = NormalizeEmail(store::AsText(people.rows[i][2]));
      if (!email.empty()) by_address[email].push_back(id);
    }
  }
  for (size_t i = 0; i < addresses.size(); ++i) {
    by_address[store::AsText(addresses.rows[i][1])].push_back(store::AsText(addresses.rows[i][0]));
  }

  std::vector<MergeSuggestion> out;
  std::set<std::pair<std::string, std::string>> seen;
  auto suggest = [&](std::vector<std::string> ids, const char* reason) {
    std::sort(ids.begin(), ids.end(),
              [&order](const std::string& a, const std::string& b) { return order[a] < order[b]; });
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    // Each into the oldest it was not said to differ from.
    for (size_t k = 1; k < ids.size(); ++k) {
      for (size_t j = 0; j < k; ++j) {
        if (distinct.count({ids[k], ids[j]})) continue;
        if (seen.insert({ids[k], ids[j]}).second) out.push_back({ids[k], ids[j], reason});
        break;
      }
    }
  };
  for (auto& [address, ids] : by_address) suggest(ids, "same_address");
  for (auto& [key, ids] : by_name) {
    if (!key.empty()) suggest(ids, "same_name");
  }
  std::stable_sort(out.begin(), out.end(), [&order](const auto& a, const auto& b) {
    if ((a.reason == "same_address") != (b.reason == "same_address")) {
      return a.reason == "same_address";
    }
    return order[a.into] < order[b.into];
  });
  if (out.size() > kMaxMergeSuggestions) out.resize(kMaxMergeSuggestions);
  return out;
}

}  // namespace ensemble::core::people
