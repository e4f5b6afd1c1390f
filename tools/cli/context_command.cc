// `tools/ensemble context packet --db FILE --ref ensemble://KIND/ID
// [--budget N] [--space S]`: a record's work packet (core/context/packet.h)
// read from a database file as the embedded server keeps it, as Markdown on
// stdout. `context item` with the same options (and --rel, --limit,
// --offset) prints the record's context graph as JSON
// (core/context/neighbors.h). The file is only read; one at an older schema
// than this build's is refused rather than migrated under a running server.

#include <charconv>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/context/neighbors.h"
#include "core/context/packet.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

namespace context = ensemble::core::context;
using core::store::Value;

constexpr char kUsage[] =
    "  context packet --db FILE --ref ensemble://KIND/ID [--budget N] [--space S]\n"
    "                                         a record's work packet, as Markdown\n"
    "  context item --db FILE --ref ensemble://KIND/ID [--rel R] [--limit N] [--offset N]\n"
    "               [--space S]               a record's context graph, as JSON\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble context: " << message << "\n";
  return 1;
}

int UsageError(const std::string& message) {
  std::cerr << "ensemble context: " << message << "\nusage:\n" << kUsage;
  return 2;
}

// The space of record `id`: the first table holding it (a deliverable: its
// project's), or "" when none does.
core::Result<std::string> SpaceOf(core::store::Database& db, const std::string& id) {
  for (const char* table : {"tasks", "projects", "people", "pages", "boards"}) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        core::store::Rows rows,
        db.Query("SELECT space_id FROM " + std::string(table) + " WHERE id = $1", {Value(id)}));
    if (!rows.rows.empty()) return core::store::AsText(rows.rows[0][0]);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      db.Query("SELECT space_id FROM record_links WHERE to_id = $1 AND rel = 'deliverable'",
               {Value(id)}));
  return rows.rows.empty() ? std::string() : core::store::AsText(rows.rows[0][0]);
}

int Run(const std::vector<std::string>& args) {
  if (args.empty() || (args[0] != "packet" && args[0] != "item")) {
    return UsageError("expected packet or item");
  }
  std::string db_path, ref, budget = std::to_string(context::kDefaultPacketChars), space, rel,
                            limit, offset;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string* into = args[i] == "--db"       ? &db_path
                        : args[i] == "--ref"    ? &ref
                        : args[i] == "--budget" ? &budget
                        : args[i] == "--space"  ? &space
                        : args[i] == "--rel"    ? &rel
                        : args[i] == "--limit"  ? &limit
                        : args[i] == "--offset" ? &offset
                                                : nullptr;
    if (into == nullptr) return UsageError("unknown option " + args[i]);
    if (i + 1 >= args.size()) return UsageError(args[i] + " needs a value");
    *into = args[++i];
  }
  if (db_path.empty() || ref.empty()) return UsageError("--db and --ref are required");
  size_t chars = 0;
  const auto [end, error] = std::from_chars(budget.data(), budget.data() + budget.size(), chars);
  if (error != std::errc() || end != budget.data() + budget.size() ||
      chars < context::kMinPacketChars || chars > context::kMaxPacketChars) {
    return UsageError("--budget: a number of characters from " +
                      std::to_string(context::kMinPacketChars) + " to " +
                      std::to_string(context::kMaxPacketChars));
  }
  auto request = context::ParseNeighborsRequest(ref, "", "", rel, limit, offset);
  if (!request.ok()) return UsageError(request.status().message());
  std::error_code exists_error;
  if (!std::filesystem::is_regular_file(db_path, exists_error)) {
    return Fail("no database file at " + db_path);
  }
  auto db = core::store::SqliteDatabase::Open(db_path);
  if (!db.ok()) return Fail(db.status().message());
  // Read as it is (SchemaVersion would create its table in a stranger file).
  auto version = (*db)->Query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  if (!version.ok()) return Fail(db_path + " is not an Ensemble database");
  const int64_t at = core::store::AsInt(version->rows[0][0]);
  const int64_t needed = core::hub::Migrations().back().version;
  if (at < needed) {
    return Fail("the database is at schema " + std::to_string(at) + ", this build reads " +
                std::to_string(needed) + ": start the server on it once to bring it up to date");
  }
  if (space.empty()) {
    auto found = SpaceOf(**db, request->id);
    if (!found.ok()) return Fail(found.status().message());
    if (found->empty()) return Fail("no " + request->kind + " with id " + request->id);
    space = *found;
  }
  core::tools::ToolContext ctx = core::hub::NewToolContext();
  ctx.db = db->get();
  ctx.space_id = space;
  if (args[0] == "packet") {
    if (!rel.empty() || !limit.empty() || !offset.empty()) {
      return UsageError("a packet holds every relation: --rel, --limit and --offset are for item");
    }
    auto packet = context::WorkPacket(ctx, request->kind, request->id, chars);
    if (!packet.ok()) return Fail(packet.status().message() + " (" + packet.status().code() + ")");
    std::cout << *packet;
    return 0;
  }
  auto item = context::ItemNeighbors(ctx, *request);
  if (!item.ok()) return Fail(item.status().message() + " (" + item.status().code() + ")");
  std::cout << item->dump(2) << "\n";
  return 0;
}

const CommandRegistrar kRegistrar("context", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
