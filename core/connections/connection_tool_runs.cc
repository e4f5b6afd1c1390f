#include "core/connections/connection_tool_runs.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/connections/app_reader.h"
#include "core/connections/calendar_people.h"
#include "core/connections/connection.h"
#include "core/people/person.h"
#include "core/people/suppressions.h"
#include "core/tools/record_rows.h"

namespace ensemble::core::connections {
namespace connection_runs {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.
using connections::AppPerson;
using connections::Connection;

// A preview names this many new people; the rest are counted.
constexpr size_t kMaxNamesInPreview = 5;
constexpr std::string_view kWhereToConnect = "Settings \u2192 Connections";

std::string AppName(const Connection& c) {
  const connections::AppEntry* app = connections::FindApp(c.app);
  return app ? std::string(app->name) : c.app;
}

std::string StateText(const Connection& c) {
  if (c.status == connections::kStatusFailing) {
    return "failing: " + c.last_error + " Reconnect it in " + std::string(kWhereToConnect) + ".";
  }
  if (c.status == connections::kStatusConnected) return "connected";
  return "connected, not read yet";
}

json ConnectionJson(const Connection& c) {
  const connections::AppEntry* app = connections::FindApp(c.app);
  return {{"id", c.id},
          {"app", c.app},
          {"appName", AppName(c)},
          {"name", c.name},
          {"status", c.status},
          {"lastError", c.last_error},
          {"reachedBy", app ? std::string(app->reached_by) : std::string()}};
}

bool ContainsFolded(std::string_view text, std::string_view part) {
  auto fold = [](unsigned char c) { return std::tolower(c); };
  return std::search(text.begin(), text.end(), part.begin(), part.end(),
                     [&](char a, char b) { return fold(a) == fold(b); }) != text.end();
}

// --- hub_import_people -------------------------------------------------------

// "a@x.org, b@y.org and 3 more" (the first kMaxNamesInPreview).
std::string AddressesText(const std::vector<std::string>& emails) {
  std::string out;
  for (size_t i = 0; i < emails.size() && i < kMaxNamesInPreview; ++i)
    out += (i ? ", " : "") + emails[i];
  if (emails.size() > kMaxNamesInPreview)
    out += " and " + std::to_string(emails.size() - kMaxNamesInPreview) + " more";
  return out;
}

struct ImportPlan {
  Connection connection;
  std::vector<AppPerson> people;          // To bring in, in the pinned order.
  std::vector<std::string> existing_ids;  // Per person: the saved one's id, or "".
  std::vector<std::string> missing;       // Pinned addresses no longer in the app.
  std::vector<std::string> removed;       // People removed from the hub: never brought back.
  size_t left_out = 0;                    // Past connections::kMaxImportPeople.
};

// Reads the app and records how the read went on the connection.
Result<connections::CalendarPeople> ReadPeople(ToolContext& ctx, const Connection& c) {
  if (!ctx.app_reader) {
    return Status(codes::kFailedPrecondition,
                  Quoted(c.name) + " is read by the server: bring its people in when online.");
  }
  Result<std::string> feed = ctx.app_reader->ReadCalendarFeed(*ctx.db, c);
  // Not a failure of the app: nothing is recorded on the connection.
  if (!feed.ok() && feed.status().code() == codes::kAppReadPending) return feed.status();
  Result<connections::CalendarPeople> found =
      feed.ok() ? connections::PeopleInCalendar(*feed, ctx.now_ms, ctx.own_email)
                : Result<connections::CalendarPeople>(feed.status());
  if (!found.ok()) {
    std::string reason = feed.ok() ? "its link does not give a calendar." : feed.status().message();
    ENSEMBLE_RETURN_IF_ERROR(connections::RecordCheck(*ctx.db, c.id, reason, ctx.now_ms));
    return Status(codes::kAppUnreachable, Quoted(c.name) + " could not be read: " + reason +
                                              " Reconnect it in " + std::string(kWhereToConnect) +
                                              ".");
  }
  ENSEMBLE_RETURN_IF_ERROR(connections::RecordCheck(*ctx.db, c.id, "", ctx.now_ms));
  return found;
}

Result<ImportPlan> PlanImport(ToolContext& ctx, const json& in) {
  ImportPlan plan;
  ENSEMBLE_ASSIGN_OR_RETURN(plan.connection,
                            connections::GetConnection(*ctx.db, ctx.space_id, ctx.account_id,
                                                       in.value("connectionId", std::string())));
  if (plan.connection.app != connections::kCalendarLinkApp) {
    return Status(codes::kFailedPrecondition,
                  Quoted(plan.connection.name) + " has no people to bring in");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(connections::CalendarPeople found, ReadPeople(ctx, plan.connection));
  plan.left_out = found.left_out;
  const std::string query = in.value("query", std::string());
  if (in.contains("emails")) {
    std::unordered_map<std::string, const AppPerson*> by_email;
    for (const AppPerson& p : found.people) by_email.emplace(p.email, &p);
    for (const json& e : in["emails"]) {
      const std::string email = people::NormalizeEmail(e.get<std::string>());
      auto it = by_email.find(email);
      if (it == by_email.end()) {
        plan.missing.push_back(email);
      } else if (MatchesQuery(query, {it->second->name, email})) {
        plan.people.push_back(*it->second);
        by_email.erase(it);  // Named twice, brought in once.
      }
    }
  } else {
    for (const AppPerson& p : found.people) {
      if (MatchesQuery(query, {p.name, p.email})) plan.people.push_back(p);
    }
  }
  // A person removed from the hub stays removed (spec 004 §4.6): an address
  // in Trash or purged from it is left out unless a live person holds it.
  ENSEMBLE_ASSIGN_OR_RETURN(std::set<std::string> suppressed,
                            people::SuppressedEmails(*ctx.db, ctx.space_id));
  std::vector<AppPerson> kept;
  for (AppPerson& p : plan.people) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<std::string> id,
                              people::FindPersonByEmail(*ctx.db, ctx.space_id, p.email));
    if (!id && suppressed.contains(p.email)) {
      plan.removed.push_back(p.email);
      continue;
    }
    plan.existing_ids.push_back(id.value_or(std::string()));
    kept.push_back(std::move(p));
  }
  plan.people = std::move(kept);
  if (plan.people.empty()) {
    const std::string from = Quoted(plan.connection.name);
    if (!plan.removed.empty()) {
      return Status(codes::kFailedPrecondition,
                    "no one to bring in: " + AddressesText(plan.removed) + " on " + from +
                        "'s events " + (plan.removed.size() == 1 ? "belongs" : "belong") +
                        " to people removed from this hub, and an import never brings them "
                        "back (restore them from Trash instead)");
    }
    if (!plan.missing.empty()) {
      return Status(codes::kNotFound,
                    "none of those addresses is on " + from + "'s events any more");
    }
    return Status(codes::kFailedPrecondition,
                  "no one to bring in: " + from + " has no other people on its events" +
                      (query.empty() ? std::string() : " matching " + Quoted(query)) +
                      " from 14 days back to 42 days ahead");
  }
  return plan;
}

size_t NewCount(const ImportPlan& plan) {
  return static_cast<size_t>(
      std::count(plan.existing_ids.begin(), plan.existing_ids.end(), std::string()));
}

std::string People(size_t n) { return std::to_string(n) + (n == 1 ? " person" : " people"); }

std::string RemovedText(const ImportPlan& plan) {
  if (plan.removed.empty()) return "";
  return " " + People(plan.removed.size()) + " removed from this hub " +
         (plan.removed.size() == 1 ? "is" : "are") + " left out: " + AddressesText(plan.removed) +
         ".";
}

std::string MissingText(const ImportPlan& plan) {
  if (plan.missing.empty()) return "";
  std::string out = " " + std::to_string(plan.missing.size()) +
                    (plan.missing.size() == 1 ? " address is" : " addresses are") +
                    " not on its events, so left out: ";
  for (size_t i = 0; i < plan.missing.size(); ++i) out += (i ? ", " : "") + plan.missing[i];
  return out + ".";
}

json PersonJson(const AppPerson& p, const std::string& id) {
  return {{"id", id}, {"name", p.name}, {"email", p.email}};
}

Result<json> RunListConnections(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  // Connections are kept by the server: a device's own copy has none, and
  // "none are connected" would be wrong there.
  if (!ctx->app_reader) {
    return Status(codes::kFailedPrecondition,
                  "Connected apps are kept by the server: list them when online.");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Connection> all,
                            connections::ListConnections(*ctx->db, ctx->space_id, ctx->account_id));
  const std::string app = call.input.value("app", std::string());
  json list = json::array();
  std::string named;
  for (const Connection& c : all) {
    if (!app.empty() && !ContainsFolded(c.name, app) && !ContainsFolded(AppName(c), app)) continue;
    if (!list.empty()) named += "; ";
    named += Quoted(c.name) + " (" + AppName(c) + ", " + StateText(c) + ")";
    list.push_back(ConnectionJson(c));
  }
  std::string summary;
  if (list.empty()) {
    summary = "No apps are connected in this space" +
              (app.empty() ? std::string() : " matching " + Quoted(app)) +
              ". Any other app is not connected; apps are connected in " +
              std::string(kWhereToConnect) + ".";
  } else {
    summary = std::to_string(list.size()) + (list.size() == 1 ? " app is" : " apps are") +
              " connected: " + named;
    if (summary.back() != '.') summary += '.';
  }
  return json{{"summary", summary}, {"data", {{"connections", std::move(list)}}}};
}

Status PrepareImport(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(ImportPlan plan, PlanImport(*ctx, call.input));
  // Addresses asked for but not in the app stay pinned, so the preview and
  // the receipt say they were left out.
  json emails = json::array();
  for (const AppPerson& p : plan.people) emails.push_back(p.email);
  for (const std::string& e : plan.missing) emails.push_back(e);
  for (const std::string& e : plan.removed) emails.push_back(e);
  json prepared = {{"connectionId", plan.connection.id}, {"emails", std::move(emails)}};
  call.input = std::move(prepared);
  return Status::Ok();
}

Result<std::string> PreviewImport(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(ImportPlan plan, PlanImport(*ctx, call.input));
  const size_t fresh = NewCount(plan);
  std::string out = "Bring in " + People(plan.people.size()) + " from " +
                    Quoted(plan.connection.name) + ": " + std::to_string(fresh) + " new";
  std::string names;
  size_t shown = 0;
  for (size_t i = 0; i < plan.people.size() && shown < kMaxNamesInPreview; ++i) {
    if (!plan.existing_ids[i].empty()) continue;
    names += (shown++ ? ", " : "") + Quoted(plan.people[i].name);
  }
  if (!names.empty()) {
    out += " (" + names + (fresh > shown ? " and " + std::to_string(fresh - shown) + " more" : "") +
           ")";
  }
  const size_t saved = plan.people.size() - fresh;
  if (saved > 0) out += ", " + std::to_string(saved) + " already saved";
  out += ".";
  if (plan.left_out > 0) {
    out += " " + People(plan.left_out) + " met less often " + (plan.left_out == 1 ? "is" : "are") +
           " left out (at most " + std::to_string(connections::kMaxImportPeople) + " at a time).";
  }
  return out + RemovedText(plan) + MissingText(plan);
}

Result<json> RunImport(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(ImportPlan plan, PlanImport(*ctx, call.input));
  std::vector<tools::Mutation> creates;
  json added = json::array();
  json saved = json::array();
  std::vector<tools::Mutation> undo;
  for (size_t i = 0; i < plan.people.size(); ++i) {
    const AppPerson& p = plan.people[i];
    if (!plan.existing_ids[i].empty()) {
      saved.push_back(PersonJson(p, plan.existing_ids[i]));
      continue;
    }
    ENSEMBLE_ASSIGN_OR_RETURN(std::string id,
                              NewRecordId(*ctx, static_cast<int64_t>(creates.size())));
    creates.push_back(
        {"person.create",
         {{"id", id}, {"spaceId", ctx->space_id}, {"name", p.name}, {"email", p.email}}});
    added.push_back(PersonJson(p, id));
    undo.push_back({"person.delete", {{"id", id}}});
  }
  if (!creates.empty()) ENSEMBLE_RETURN_IF_ERROR(ctx->write(creates));
  std::string summary =
      "Brought in " + People(added.size()) + " from " + Quoted(plan.connection.name) + ".";
  if (!saved.empty()) {
    summary +=
        " " + People(saved.size()) + (saved.size() == 1 ? " was" : " were") + " already saved.";
  }
  summary += RemovedText(plan) + MissingText(plan);
  json result = {{"summary", summary},
                 {"data",
                  {{"added", std::move(added)},
                   {"alreadySaved", std::move(saved)},
                   {"notFound", plan.missing},
                   {"removed", plan.removed}}}};
  if (!undo.empty()) result["undo"] = UndoJson(std::move(undo));
  return result;
}

}  // namespace connection_runs

}  // namespace ensemble::core::connections
