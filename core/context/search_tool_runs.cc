// hub_search_work: every kept kind of the turn's space searched at once. A
// record matches when each word of the query appears in its title or one of
// its texts (tools::record_rows::MatchesQuery); title matches come first, then the
// most recently changed.

#include "core/context/search_tool_runs.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/item_context.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using tools::Quoted;
using tools::ToolCall;
using tools::ToolContext;
using tools::record_rows::MatchesQuery;

// The default number of matches (the schema leaves limit optional).
constexpr std::size_t kDefaultSearchResults = 20;

// One searched kind: its table, the column that titles it, the texts searched
// beside the title (the first one is where a snippet comes from), and what
// else a result carries.
struct SearchedKind {
  std::string_view kind;
  std::string_view table;
  std::string_view title;
  std::vector<std::string_view> texts;
  bool has_status;
  bool has_due;
};

const std::vector<SearchedKind>& SearchedKinds() {
  static const std::vector<SearchedKind> kKinds = {
      {"task", "tasks", "title", {"description", "labels"}, true, true},
      {"project", "projects", "title", {"description"}, true, true},
      {"page", "pages", "title", {"body"}, false, false},
      {"person", "people", "name", {"role", "team", "email"}, false, false},
      {"board", "boards", "title", {"description"}, false, false},
  };
  return kKinds;
}

struct Match {
  json result;  // What the model gets: kind, id, title, ...
  int rank;     // 0: the title matches; 1: another text does.
  int64_t updated_at;
};

// Up to kSearchSnippetChars of `text` around the first word of `query` it
// holds, on whole code points and with runs of white space made one space.
std::string SnippetOf(std::string_view text, std::string_view query) {
  const std::string lowered = text::AsciiLowered(text);
  const std::string q = text::AsciiLowered(query);
  std::size_t at = std::string::npos;
  for (std::size_t start = 0; start < q.size() && at == std::string::npos;) {
    std::size_t end = q.find_first_of(" \t\r\n", start);
    if (end == std::string::npos) end = q.size();
    if (end > start) at = lowered.find(q.substr(start, end - start));
    start = end + 1;
  }
  if (at == std::string::npos) at = 0;
  std::size_t from = at > kSearchSnippetChars / 3 ? at - kSearchSnippetChars / 3 : 0;
  while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) --from;
  std::string out = from > 0 ? "…" : "";
  bool space = false;
  for (char c : text.substr(from)) {
    const bool is_space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (is_space) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return text::TruncateChars(out, kSearchSnippetChars);
}

Status SearchKind(ToolContext& ctx, const SearchedKind& k, const std::string& query,
                  std::vector<Match>& out) {
  std::string columns = "id, updated_at, " + std::string(k.title);
  for (std::string_view t : k.texts) columns += ", " + std::string(t);
  if (k.has_status) columns += ", status";
  if (k.has_due) columns += ", due";
  if (k.kind == "project") columns += ", deliverables";
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query("SELECT " + columns + " FROM " + std::string(k.table) +
                                              " WHERE space_id = $1 AND deleted = 0 ORDER BY id",
                                          {store::Value(ctx.space_id)}));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::vector<store::Value>& row = rows.rows[i];
    const std::string id = store::AsText(row[0]);
    const int64_t updated_at = store::AsInt(row[1]);
    const std::string title = store::AsText(row[2]);
    std::vector<std::string> texts = {title};
    for (std::size_t t = 0; t < k.texts.size(); ++t) texts.push_back(store::AsText(row[3 + t]));
    std::size_t next = 3 + k.texts.size();
    if (MatchesQuery(query, texts)) {
      json result = {{"kind", std::string(k.kind)}, {"id", id}, {"title", title}};
      if (k.has_status) result["status"] = store::AsText(row[next]);
      if (k.has_due && !store::IsNull(row[next + 1])) result["due"] = store::AsText(row[next + 1]);
      const int rank = MatchesQuery(query, {title}) ? 0 : 1;
      if (rank == 1 && MatchesQuery(query, {texts[1]}))
        result["snippet"] = SnippetOf(texts[1], query);
      if (k.kind == "person" && !texts[3].empty()) result["email"] = texts[3];
      out.push_back({std::move(result), rank, updated_at});
    }
    if (k.kind != "project") continue;
    // A project's deliverables are found by their own titles.
    const json deliverables = json::parse(store::AsText(row[next + 2]), nullptr, false);
    if (!deliverables.is_array()) continue;
    for (const json& d : deliverables) {
      const std::string d_title = d.value("title", std::string());
      if (d_title.empty() || !MatchesQuery(query, {d_title})) continue;
      out.push_back({{{"kind", "deliverable"},
                      {"id", d.value("id", std::string())},
                      {"title", d_title},
                      {"done", d.value("done", false)},
                      {"project", {{"id", id}, {"title", title}}}},
                     0,
                     updated_at});
    }
  }
  return Status::Ok();
}

bool Wanted(const json& kinds, std::string_view kind) {
  if (!kinds.is_array() || kinds.empty()) return true;
  return std::any_of(kinds.begin(), kinds.end(), [&](const json& k) { return k == kind; });
}

}  // namespace

Result<json> RunSearchWork(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  const std::string query(text::Trim(call.input.value("query", std::string())));
  if (query.empty()) return InvalidArgument("query: give the words to search for");
  const json kinds = call.input.value("kinds", json::array());
  std::vector<Match> matches;
  for (const SearchedKind& k : SearchedKinds()) {
    const bool deliverables = k.kind == "project" && Wanted(kinds, "deliverable");
    if (!Wanted(kinds, k.kind) && !deliverables) continue;
    ENSEMBLE_RETURN_IF_ERROR(SearchKind(*ctx, k, query, matches));
  }
  // A project searched only for its deliverables is not itself a match.
  std::erase_if(
      matches, [&](const Match& m) { return !Wanted(kinds, m.result["kind"].get<std::string>()); });
  // Ties keep the order searched: kind by kind, each oldest first.
  std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.updated_at > b.updated_at;
  });
  const std::size_t limit = std::min<std::size_t>(
      kMaxSearchResults,
      static_cast<std::size_t>(tools::IntIn(call.input, "limit", kDefaultSearchResults)));
  json results = json::array();
  std::string listed;
  for (std::size_t i = 0; i < matches.size() && i < limit; ++i) {
    const json& r = matches[i].result;
    listed += (i ? ", " : " ") + r["kind"].get<std::string>() + " " +
              Quoted(r["title"].get<std::string>());
    results.push_back(r);
  }
  json data = {{"results", results}, {"total", matches.size()}};
  std::vector<std::string> unkept = UnkeptKinds(kinds);
  std::string summary =
      matches.empty()
          ? "Nothing in this space matches " + Quoted(query) + "."
          : "Found " + text::CountText(matches.size(), "match", "matches") + " for " +
                Quoted(query) + ":" + listed +
                (matches.size() > results.size()
                     ? "; and " + std::to_string(matches.size() - results.size()) + " more."
                     : ".");
  if (!unkept.empty()) {
    data["notKept"] = unkept;
    summary += " " + UnkeptText(unkept) + ", so they were not searched.";
  }
  return json{{"summary", summary}, {"data", std::move(data)}};
}

}  // namespace ensemble::core::context
