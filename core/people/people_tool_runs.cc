#include "core/people/people_tool_runs.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/people/merge.h"
#include "core/people/person.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::people {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

json PersonShape(const json& row) {
  json out = {{"id", row["id"]},     {"name", row["name"]}, {"email", row["email"]},
              {"role", row["role"]}, {"team", row["team"]}, {"relationship", row["relationship"]}};
  // What hub_list_people adds: other addresses and provider ids, and the
  // people this one may be (a merge to offer, never to make unasked).
  for (const char* extra : {"identities", "maybeSameAs"}) {
    if (row.contains(extra)) out[extra] = row[extra];
  }
  return out;
}

std::string NameText(const json& row) { return Quoted(row.value("name", std::string())); }

// --- hub_list_people ---------------------------------------------------------

// Gives each of `rows` (the space's live people) its live identities
// [{kind, value}] and the people it may be [{id, name, reason}].
Status AddIdentitiesAndSuggestions(ToolContext& ctx, std::vector<json>& rows) {
  std::map<std::string, json*> by_id;
  for (json& r : rows) {
    r["identities"] = json::array();
    r["maybeSameAs"] = json::array();
    by_id[r["id"].get<std::string>()] = &r;
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows identities,
      ctx.db->Query("SELECT person, identity_kind, value FROM person_identities WHERE space_id = "
                    "$1 AND deleted = 0 ORDER BY identity_kind, value",
                    {store::Value(ctx.space_id)}));
  for (size_t i = 0; i < identities.size(); ++i) {
    auto it = by_id.find(store::AsText(identities.rows[i][0]));
    if (it == by_id.end()) continue;
    (*it->second)["identities"].push_back({{"kind", store::AsText(identities.rows[i][1])},
                                           {"value", store::AsText(identities.rows[i][2])}});
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<people::MergeSuggestion> pairs,
                            people::FindMergeSuggestions(*ctx.db, ctx.space_id));
  for (const people::MergeSuggestion& s : pairs) {
    auto a = by_id.find(s.person);
    auto b = by_id.find(s.into);
    if (a == by_id.end() || b == by_id.end()) continue;
    a->second->at("maybeSameAs")
        .push_back({{"id", s.into}, {"name", b->second->at("name")}, {"reason", s.reason}});
    b->second->at("maybeSameAs")
        .push_back({{"id", s.person}, {"name", a->second->at("name")}, {"reason", s.reason}});
  }
  return Status::Ok();
}

// --- fields ------------------------------------------------------------------

// The given fields, each checked and normalized as the record keeps it.
Result<json> PersonFields(const json& given) {
  json fields = json::object();
  for (const auto& [name, value] : given.items()) {
    const records::FieldSpec* f = people::kPersonKind.FindField(name);
    if (!f) return InvalidArgument("people do not keep " + name);
    Status st = records::CheckField(*f, value);
    if (!st.ok()) return InvalidArgument(st.message());
    fields[name] = records::NormalizeField(*f, value);
  }
  return fields;
}

std::string PersonChangesText(const json& fields) {
  std::string out;
  for (const auto& [name, value] : fields.items()) {
    std::string part;
    if (value.is_null() || (value.is_string() && value.get<std::string>().empty())) {
      part = "no " + name;
    } else if (name == "name") {
      part = "name to " + Quoted(value.get<std::string>());
    } else {
      part = name + " to " + value.get<std::string>();
    }
    out += (out.empty() ? "" : ", ") + part;
  }
  return out;
}

// --- hub_create_person -------------------------------------------------------

// What a create does: add a person, or reuse the one with the address and
// change `changes` on it (maybe nothing).
struct CreatePlan {
  json fields;                   // As given, normalized.
  std::optional<json> existing;  // The person with the same address.
  json changes = json::object();
};

Result<CreatePlan> PlanCreate(ToolContext& ctx, const json& in) {
  CreatePlan plan;
  ENSEMBLE_ASSIGN_OR_RETURN(plan.fields, PersonFields(in));
  if (!plan.fields.contains("name")) return InvalidArgument("a person needs a name");
  const json email = plan.fields.value("email", json(nullptr));
  if (!email.is_string()) return plan;
  ENSEMBLE_ASSIGN_OR_RETURN(
      std::optional<std::string> id,
      people::FindPersonByEmail(*ctx.db, ctx.space_id, email.get<std::string>()));
  if (!id) return plan;
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(ctx, kPerson, *id));
  plan.existing = row;
  // The saved name stays: the address names the person, and the name given
  // may be a nickname. Details the person gave fill in or replace the rest.
  for (const char* name : {"role", "team", "relationship"}) {
    if (plan.fields.contains(name) && plan.fields[name] != row[name] &&
        !(plan.fields[name].is_string() && plan.fields[name].get<std::string>().empty())) {
      plan.changes[name] = plan.fields[name];
    }
  }
  return plan;
}

std::string ReuseText(const CreatePlan& plan, bool done) {
  std::string out = NameText(*plan.existing) + " is already saved with " +
                    plan.existing->value("email", std::string());
  if (plan.changes.empty()) return out + "; nothing to change.";
  return out + "; " + (done ? "changed " : "change ") + PersonChangesText(plan.changes) + ".";
}

// --- hub_update_person -------------------------------------------------------

Result<json> PersonUpdateTarget(ToolContext& ctx, const json& in) {
  const std::string id = tools::StringIn(in, "id");
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row, FindInSpace(ctx, kPerson, id));
  if (!row) return NotFound(kPerson, id);
  if (row->value("deleted", int64_t{0}) != 0) {
    return Status(codes::kRecordDeleted,
                  NameText(*row) + " is in Trash; restore it to apply the edit");
  }
  return *row;
}

// The fields, refusing an address another person of the space has.
Result<json> UpdateFields(ToolContext& ctx, const json& row, const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, PersonFields(in.value("fields", json::object())));
  if (fields.empty()) return InvalidArgument("fields must name a change");
  if (fields.contains("email") && fields["email"].is_string()) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::optional<std::string> other,
        people::FindPersonByEmail(*ctx.db, ctx.space_id, fields["email"].get<std::string>()));
    if (other && *other != row["id"].get<std::string>()) {
      ENSEMBLE_ASSIGN_OR_RETURN(json them, LiveInSpace(ctx, kPerson, *other));
      return Status(codes::kAlreadyExists,
                    NameText(them) + " already has the address " +
                        fields["email"].get<std::string>() +
                        "; one address names one person, so change theirs first");
    }
  }
  return fields;
}

// --- hub_merge_people --------------------------------------------------------

struct MergePair {
  json person;  // merged away
  json into;    // kept
};

Result<MergePair> MergeTargets(ToolContext& ctx, const json& in) {
  const std::string id = tools::StringIn(in, "personId");
  const std::string into = tools::StringIn(in, "intoPersonId");
  if (id == into) return InvalidArgument("a person cannot be merged into themselves");
  ENSEMBLE_ASSIGN_OR_RETURN(json person, LiveInSpace(ctx, kPerson, id));
  ENSEMBLE_ASSIGN_OR_RETURN(json kept, LiveInSpace(ctx, kPerson, into));
  return MergePair{std::move(person), std::move(kept)};
}

}  // namespace

Result<json> RunListPeople(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  const std::string query = tools::StringIn(call.input, "query");
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kPerson));
  ENSEMBLE_RETURN_IF_ERROR(AddIdentitiesAndSuggestions(*ctx, rows));
  std::erase_if(rows, [&](const json& r) {
    const json email = r.value("email", json(nullptr));
    std::vector<std::string> texts = {r.value("name", std::string()),
                                      email.is_string() ? email.get<std::string>() : ""};
    for (const json& i : r["identities"]) texts.push_back(i["value"]);
    return !MatchesQuery(query, texts);
  });
  return ListResult(kPerson, call.input, rows, query, PersonShape);
}

Result<std::string> PreviewCreatePerson(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(CreatePlan plan, PlanCreate(*ctx, call.input));
  if (plan.existing) return ReuseText(plan, false);
  return "Add person " + Quoted(plan.fields["name"].get<std::string>()) + ".";
}

Result<json> RunCreatePerson(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(CreatePlan plan, PlanCreate(*ctx, call.input));
  if (plan.existing) {
    const std::string id = (*plan.existing)["id"].get<std::string>();
    json result = {{"summary", ReuseText(plan, true)},
                   {"data", {{"person", PersonShape(*plan.existing)}, {"reused", true}}}};
    if (plan.changes.empty()) return result;
    json previous = json::object();
    for (const auto& [name, _] : plan.changes.items()) previous[name] = (*plan.existing)[name];
    ENSEMBLE_RETURN_IF_ERROR(ctx->write(
        {{"person.update", {{"id", id}, {"fields", plan.changes}, {"base", previous}}}}));
    ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kPerson, id));
    result["data"]["person"] = PersonShape(after);
    result["undo"] = UndoJson({UpdateBack(kPerson, id, previous, plan.changes)});
    return result;
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  json args = plan.fields;
  args["id"] = id;
  args["spaceId"] = ctx->space_id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"person.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kPerson, id));
  return json{{"summary", "Added person " + NameText(row) + "."},
              {"data", {{"person", PersonShape(row)}, {"reused", false}}},
              {"undo", UndoJson({{"person.delete", {{"id", id}}}})}};
}

// Pins the values the change is based on (PinBase), so a held edit does not
// overwrite a field someone changed before Apply.
Status PrepareUpdatePerson(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, PersonUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, row, call.input));
  json current = json::object();
  for (const auto& [name, _] : fields.items()) current[name] = row[name];
  PinBase(call.input, current);
  return Status::Ok();
}

Result<std::string> PreviewUpdatePerson(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, PersonUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, row, call.input));
  return "Change " + NameText(row) + ": " + PersonChangesText(fields) + ".";
}

Result<json> RunUpdatePerson(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, PersonUpdateTarget(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, UpdateFields(*ctx, row, call.input));
  json base = json::object();
  const json given_base = call.input.value("base", json::object());
  for (const auto& [name, value] : given_base.items()) {
    if (fields.contains(name)) base[name] = value;
  }
  json args = {{"id", row["id"]}, {"fields", fields}};
  if (!base.empty()) args["base"] = base;
  Status st = ctx->write({{"person.update", args}});
  if (st.code() == codes::kSaveConflict) return ConflictError(*ctx, kPerson, row, fields, st);
  ENSEMBLE_RETURN_IF_ERROR(st);
  json previous = json::object();
  for (const auto& [name, _] : fields.items()) previous[name] = row[name];
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kPerson, row["id"].get<std::string>()));
  return json{{"summary", "Updated " + NameText(row) + ": " + PersonChangesText(fields) + "."},
              {"data", {{"person", PersonShape(after)}}},
              {"undo", UndoJson({UpdateBack(kPerson, row["id"], previous, fields)})}};
}

Result<std::string> PreviewMergePeople(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(MergePair pair, MergeTargets(*ctx, call.input));
  return "Merge " + NameText(pair.person) + " into " + NameText(pair.into) +
         ": their tasks, projects, comments, reminders, watchers and addresses move to " +
         NameText(pair.into) + ", and " + NameText(pair.person) + " goes to Trash.";
}

// No Undo: restoring the merged person from Trash does not move links back.
Result<json> RunMergePeople(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(MergePair pair, MergeTargets(*ctx, call.input));
  ENSEMBLE_RETURN_IF_ERROR(
      ctx->write({{"person.merge", {{"id", pair.person["id"]}, {"into", pair.into["id"]}}}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json after,
                            LiveInSpace(*ctx, kPerson, pair.into["id"].get<std::string>()));
  return json{{"summary", "Merged " + NameText(pair.person) + " into " + NameText(pair.into) + "."},
              {"data", {{"person", PersonShape(after)}, {"merged", pair.person["id"]}}}};
}

Status PrepareDeletePeople(ToolCall& call) { return PrepareDelete(kPerson, call); }

Result<std::string> PreviewDeletePeople(const ToolCall& call) {
  return PreviewDelete(kPerson, call);
}

Result<json> RunDeletePeople(ToolCall& call) { return RunDelete(kPerson, call); }

}  // namespace ensemble::core::people
