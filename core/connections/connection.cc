#include "core/connections/connection.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::connections {
namespace connection_rows {

using store::Value;

constexpr std::array<AppEntry, 1> kCatalog = {{
    {kCalendarLinkApp, "Calendar link", "calendar",
     "hub_import_people brings in the people on its events (addresses and names only)"},
}};

constexpr std::string_view kColumns =
    "id, space_id, account_id, app, name, status, last_error, created_at, checked_at";

Connection FromRow(const std::vector<Value>& r) {
  Connection c;
  c.id = store::AsText(r[0]);
  c.space_id = store::AsText(r[1]);
  c.account_id = store::AsText(r[2]);
  c.app = store::AsText(r[3]);
  c.name = store::AsText(r[4]);
  c.status = store::AsText(r[5]);
  c.last_error = store::AsText(r[6]);
  c.created_at = store::AsInt(r[7]);
  c.checked_at = store::AsInt(r[8]);
  return c;
}

// The owner filter: an empty account (the local person) sees every one.
std::string OwnerClause(std::string_view account_id, int param) {
  if (account_id.empty()) return "";
  return " AND account_id = $" + std::to_string(param);
}

}  // namespace connection_rows

using namespace connection_rows;  // NOLINT

const store::Migration kCreateConnectionsTable = {
    27, "connected apps",
    "CREATE TABLE connections ("
    " id TEXT PRIMARY KEY, space_id TEXT NOT NULL, account_id TEXT NOT NULL,"
    " app TEXT NOT NULL, name TEXT NOT NULL, sealed_secret TEXT NOT NULL,"
    " status TEXT NOT NULL, last_error TEXT NOT NULL, created_at BIGINT NOT NULL,"
    " checked_at BIGINT NOT NULL);"
    "CREATE INDEX connections_by_space ON connections (space_id, created_at);"};

std::span<const AppEntry> AppCatalog() { return kCatalog; }

const AppEntry* FindApp(std::string_view id) {
  for (const AppEntry& e : kCatalog) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

Status CheckConnectionName(std::string_view name) {
  if (name.empty()) return InvalidArgument("name is required");
  if (!text::IsValidUtf8(name) || text::CountCodePoints(name) > kMaxConnectionNameChars) {
    return InvalidArgument("name must be text of at most " +
                           std::to_string(kMaxConnectionNameChars) + " characters");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) return InvalidArgument("name must not contain control characters");
  }
  return Status::Ok();
}

Result<std::string> NormalizeCalendarLink(std::string_view link) {
  if (link.empty()) return InvalidArgument("url is required");
  if (link.size() > kMaxLinkChars) {
    return InvalidArgument("url must be at most " + std::to_string(kMaxLinkChars) + " characters");
  }
  for (unsigned char c : link) {
    if (c <= 0x20 || c >= 0x7f) {
      return InvalidArgument("url must not contain spaces or control characters");
    }
  }
  std::string out;
  size_t rest = 0;
  for (auto [from, to] : {std::pair<std::string_view, std::string_view>{"https://", "https://"},
                          {"http://", "http://"},
                          {"webcals://", "https://"},
                          {"webcal://", "https://"}}) {
    if (link.size() >= from.size()) {
      std::string lower(link.substr(0, from.size()));
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower == from) {
        out = std::string(to);
        rest = from.size();
        break;
      }
    }
  }
  if (out.empty()) return InvalidArgument("url must be an http(s) or webcal address");
  const std::string_view tail = link.substr(rest);
  const size_t host_end = tail.find_first_of("/?#");
  const std::string_view authority = tail.substr(0, host_end);
  if (authority.empty()) return InvalidArgument("url must name a host");
  if (authority.find('@') != std::string_view::npos) {
    return InvalidArgument("url must not hold a user name or password");
  }
  out += tail;
  return out;
}

Status AddConnection(store::Database& db, const Connection& c, std::string_view sealed_secret) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows count,
      db.Query("SELECT COUNT(*) FROM connections WHERE space_id = $1", {Value(c.space_id)}));
  if (store::AsInt(count.rows[0][0]) >= static_cast<int64_t>(kMaxConnectionsPerSpace)) {
    return Status(codes::kLimitReached, "a space can have at most " +
                                            std::to_string(kMaxConnectionsPerSpace) +
                                            " connected apps; remove one first");
  }
  return db.Exec("INSERT INTO connections (" + std::string(kColumns) +
                     ", sealed_secret) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                 {Value(c.id), Value(c.space_id), Value(c.account_id), Value(c.app), Value(c.name),
                  Value(c.status.empty() ? std::string(kStatusNew) : c.status), Value(c.last_error),
                  Value(c.created_at), Value(c.checked_at), Value(std::string(sealed_secret))});
}

Result<std::vector<Connection>> ListConnections(store::Database& db, std::string_view space_id,
                                                std::string_view account_id) {
  std::vector<Value> params = {Value(std::string(space_id))};
  if (!account_id.empty()) params.push_back(Value(std::string(account_id)));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT " + std::string(kColumns) + " FROM connections WHERE space_id = $1" +
                   OwnerClause(account_id, 2) + " ORDER BY created_at, id",
               params));
  std::vector<Connection> out;
  out.reserve(rows.size());
  for (const auto& r : rows.rows) out.push_back(FromRow(r));
  return out;
}

Result<Connection> GetConnection(store::Database& db, std::string_view space_id,
                                 std::string_view account_id, std::string_view id) {
  std::vector<Value> params = {Value(std::string(id)), Value(std::string(space_id))};
  if (!account_id.empty()) params.push_back(Value(std::string(account_id)));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT " + std::string(kColumns) +
                   " FROM connections WHERE id = $1 AND space_id = $2" + OwnerClause(account_id, 3),
               params));
  if (rows.empty()) {
    return Status(codes::kNotFound, "no connection with id " + std::string(id) +
                                        " in this space (hub_list_connections lists them)");
  }
  return FromRow(rows.rows[0]);
}

Result<std::string> SealedSecret(store::Database& db, std::string_view id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT sealed_secret FROM connections WHERE id = $1", {Value(std::string(id))}));
  if (rows.empty()) return Status(codes::kNotFound, "no connection with id " + std::string(id));
  return store::AsText(rows.rows[0][0]);
}

Status RecordCheck(store::Database& db, std::string_view id, std::string_view error,
                   int64_t now_ms) {
  std::string kept = text::TruncateChars(error, kMaxErrorChars);
  return db.Exec(
      "UPDATE connections SET status = $2, last_error = $3, checked_at = $4 WHERE id = $1",
      {Value(std::string(id)),
       Value(std::string(error.empty() ? kStatusConnected : kStatusFailing)), Value(kept),
       Value(now_ms)});
}

Result<bool> DeleteConnection(store::Database& db, std::string_view account_id,
                              std::string_view id) {
  std::vector<Value> params = {Value(std::string(id))};
  if (!account_id.empty()) params.push_back(Value(std::string(account_id)));
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("DELETE FROM connections WHERE id = $1" +
                                         OwnerClause(account_id, 2) + " RETURNING id",
                                     params));
  return !rows.empty();
}

}  // namespace ensemble::core::connections
