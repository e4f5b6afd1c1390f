#include "core/reminders/watcher_news.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "core/boards/card.h"
#include "core/comments/comment.h"
#include "core/records/record_kind.h"
#include "core/reminders/reminder.h"
#include "core/text/trim.h"

namespace ensemble::core::reminders {

using nlohmann::json;
using store::Value;

namespace {

// A change that is news for the watchers of record (kind, id).
struct News {
  std::string kind;
  std::string id;
  std::string what;  // "changed status and due", after the writer's name.
};

// What `op` did to the record its arguments name, or "changed it" for a
// record it wrote along the way (a merge moving links, say).
std::string ChangePhrase(std::string_view op, const json& args, bool named) {
  if (!named) return "changed it";
  if (op == "delete") return "moved it to Trash";
  if (op == "restore") return "restored it";
  std::vector<std::string> fields;
  if (op == "update" && args.contains("fields") && args["fields"].is_object()) {
    for (const auto& [name, value] : args["fields"].items()) {
      std::string spoken = name;
      std::replace(spoken.begin(), spoken.end(), '_', ' ');
      fields.push_back(std::move(spoken));
    }
  }
  return fields.empty() ? "changed it" : "changed " + text::JoinWithAnd(fields);
}

// Columns of row `id` of `table` (in Trash or not) as text; empty when none.
Result<std::vector<std::string>> Columns(store::Database& db, std::string_view table,
                                         const std::string& id, const std::string& columns) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query("SELECT " + columns + " FROM " +
                                                           std::string(table) + " WHERE id = $1",
                                                       {Value(id)}));
  std::vector<std::string> out;
  if (rows.empty()) return out;
  for (const Value& v : rows.rows[0]) out.push_back(store::AsText(v));
  return out;
}

// The news a write of (kind, id) by `mutation` makes, if any record a
// watcher can watch is concerned.
Result<std::optional<News>> NewsOf(store::Database& db, const std::string& kind,
                                   const std::string& id, std::string_view mutation,
                                   const json& args) {
  const size_t dot = mutation.find('.');
  const bool same_kind = mutation.substr(0, dot) == kind;
  const std::string_view op = same_kind ? mutation.substr(dot + 1) : "";
  const bool named = same_kind && records::StringMember(args, "id") == id;
  if (comments::IsTargetKind(kind)) {
    return std::optional<News>(News{kind, id, ChangePhrase(op, args, named || op == "create")});
  }
  if (kind == comments::kKind) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> target,
                              Columns(db, comments::kTable, id, "target_kind, target"));
    if (target.size() != 2) return std::optional<News>();
    return std::optional<News>(
        News{target[0], target[1], op == "create" ? "commented" : "changed a comment"});
  }
  if (kind == boards::kCardKind) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> board,
                              Columns(db, boards::kCardTable, id, "board"));
    if (board.size() != 1) return std::optional<News>();
    const char* what = op == "create"   ? "put a card on it"
                       : op == "delete" ? "took a card off it"
                                        : "moved a card";
    return std::optional<News>(News{"board", board[0], what});
  }
  return std::optional<News>();
}

// The writer as the owner will know them: their name, else their address.
Result<std::string> WriterName(store::Database& db, const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> who,
                            Columns(db, "accounts", account_id, "name, email"));
  if (who.size() != 2) return std::string("Someone");
  return who[0].empty() ? who[1] : who[0];
}

Result<bool> OwnsSpace(store::Database& db, const std::string& space_id,
                       const std::string& account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT 1 FROM space_members WHERE space_id = $1 AND"
                                     " account_id = $2 AND role = 'owner'",
                                     {Value(space_id), Value(account_id)}));
  return !rows.empty();
}

}  // namespace

const store::Migration kAddWatcherNews = {
    25, "watchers' news",
    "ALTER TABLE watchers ADD COLUMN changes BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE watchers ADD COLUMN last_change TEXT;"
    "ALTER TABLE watchers ADD COLUMN changed_at BIGINT NOT NULL DEFAULT 0;"
    // Every change the server applies looks its records' watchers up by target.
    "CREATE INDEX watchers_target ON watchers (target, target_kind);"};

Status RecordWatcherNews(sync::MutationContext& ctx, const std::string* account_id,
                         std::string_view mutation, const json& args) {
  if (!account_id) return Status::Ok();  // The single local person owns everything.
  // Copied: writing a watcher below adds to written().
  const std::vector<std::pair<std::string, std::string>> written = ctx.written();
  std::vector<std::string> told;  // One piece of news per watcher per change.
  std::optional<std::string> writer;
  for (const auto& [kind, id] : written) {
    if (kind == kWatcherKind) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<News> news, NewsOf(ctx.db(), kind, id, mutation, args));
    if (!news) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows watchers,
        ctx.db().Query("SELECT id, space_id FROM " + std::string(kWatcherTable) +
                           " WHERE target = $1 AND target_kind = $2 AND deleted = 0 ORDER BY id",
                       {Value(news->id), Value(news->kind)}));
    for (size_t i = 0; i < watchers.size(); ++i) {
      const std::string watcher = store::AsText(watchers.rows[i][0]);
      if (std::find(told.begin(), told.end(), watcher) != told.end()) continue;
      ENSEMBLE_ASSIGN_OR_RETURN(
          bool own, OwnsSpace(ctx.db(), store::AsText(watchers.rows[i][1]), *account_id));
      if (own) continue;
      if (!writer) {
        ENSEMBLE_ASSIGN_OR_RETURN(writer, WriterName(ctx.db(), *account_id));
      }
      told.push_back(watcher);
      ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kWatcherKind, watcher));
      // The watcher's version stays: news is not an edit of its fields, so it
      // never turns the person's own edit of the watcher into a conflict.
      ENSEMBLE_RETURN_IF_ERROR(ctx.db().Exec(
          "UPDATE " + std::string(kWatcherTable) +
              " SET changes = changes + 1, last_change = $2, changed_at = $3,"
              " row_version = $4 WHERE id = $1",
          {Value(watcher),
           Value(text::TruncateChars(*writer + " " + news->what, kMaxWatcherNewsChars)),
           Value(ctx.now_ms()), Value(ctx.row_version())}));
    }
  }
  return Status::Ok();
}

Status MarkWatcherSeen(sync::MutationContext& ctx, const json& args) {
  const std::string id = records::StringMember(args, "id");
  if (id.empty()) return InvalidArgument("id must be a watcher id");
  if (!args.contains("through") || !args["through"].is_number_integer() ||
      args["through"].get<int64_t>() < 0) {
    return InvalidArgument("through must be the changed_at of the news seen (ms, 0 or more)");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db().Query("SELECT changed_at FROM " + std::string(kWatcherTable) +
                                               " WHERE id = $1 AND deleted = 0",
                                           {Value(id)}));
  if (rows.empty()) return Status(codes::kNotFound, "no watcher with id " + id);
  // Newer news than the person saw stays.
  if (store::AsInt(rows.rows[0][0]) > args["through"].get<int64_t>()) return Status::Ok();
  ENSEMBLE_RETURN_IF_ERROR(ctx.WillWrite(kWatcherKind, id));
  std::vector<Value> params = {Value(id)};
  std::string stamp;
  if (ctx.row_version() != 0) {
    params.push_back(Value(ctx.row_version()));
    stamp = ", row_version = $2";
  }
  return ctx.db().Exec(
      "UPDATE " + std::string(kWatcherTable) + " SET changes = 0" + stamp + " WHERE id = $1",
      params);
}

}  // namespace ensemble::core::reminders
