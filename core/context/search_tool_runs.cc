// hub_search_work: every kept kind of the turn's space searched at once and
// ranked as spec 004 §5 says (core/context/search_rank.h): a record matches
// when any word of the query is in its title or one of its texts. Each kind's
// candidates, at most 30, come from the search index (search_index.h); the
// ranking reads and scores only those.

#include "core/context/search_tool_runs.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/item_context.h"
#include "core/context/neighbors.h"
#include "core/context/search_index.h"
#include "core/context/search_rank.h"
#include "core/refs/record_handle.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using tools::Quoted;
using tools::ToolCall;
using tools::ToolContext;

// The default number of matches (the schema leaves limit optional).
constexpr std::size_t kDefaultSearchResults = 20;

// The candidates of every kind searched: what the ranking reads, and beside
// each what the model gets if it ranks.
struct Candidates {
  std::vector<SearchRecord> records;
  std::vector<json> results;
  // Whether the index found records past a kind's bound, never read.
  bool more = false;
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
  // Enough bytes for more code points than the snippet keeps (each is at
  // most 4), so a page's long body is not copied whole to be cut.
  constexpr std::size_t kEnoughBytes = 4 * (kSearchSnippetChars + 2);
  bool space = false;
  for (char c : text.substr(from)) {
    if (out.size() > kEnoughBytes) break;
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

// The columns of `k` to select for `count` ids ($2...).
std::string SelectOf(const SearchedKind& k, std::size_t count) {
  std::string columns = "t.id, t.updated_at, t." + std::string(k.title) + SearchedTextColumns(k);
  if (k.has_status) columns += ", t.status";
  if (k.has_due) columns += ", t.due";
  if (k.kind == "task" || k.kind == "page") columns += ", t.project";
  if (k.kind == "project") columns += ", t.deliverables";
  std::string ids;
  for (std::size_t i = 0; i < count; ++i) ids += (i ? ", $" : "$") + std::to_string(i + 2);
  return "SELECT " + columns + SearchedFrom(k) + " WHERE t.space_id = $1 AND t.deleted = 0" +
         " AND t.id IN (" + ids + ") ORDER BY t.id";
}

bool Wanted(const json& kinds, std::string_view kind) {
  if (!kinds.is_array() || kinds.empty()) return true;
  return std::any_of(kinds.begin(), kinds.end(), [&](const json& k) { return k == kind; });
}

bool IsOpen(std::string_view kind, std::string_view status) {
  if (kind == "task") return status != "done";
  if (kind == "project") return status == "active";
  return false;
}

// The index's candidates of `kind` for `query`, added to `ids`; whether
// there were more noted in `out`.
Status FindInto(ToolContext& ctx, std::string_view kind, const SearchQuery& query,
                std::set<std::string>& ids, Candidates& out) {
  ENSEMBLE_ASSIGN_OR_RETURN(IndexCandidates found,
                            FindCandidates(*ctx.db, ctx.space_id, kind, query));
  out.more = out.more || found.more;
  ids.insert(found.ids.begin(), found.ids.end());
  return Status::Ok();
}

Status SearchKind(ToolContext& ctx, const SearchedKind& k, const json& kinds,
                  const SearchQuery& query, Candidates& out) {
  // Records found by their own words, and projects by their deliverables'.
  std::set<std::string> own, holding;
  if (Wanted(kinds, k.kind)) ENSEMBLE_RETURN_IF_ERROR(FindInto(ctx, k.kind, query, own, out));
  if (k.kind == "project" && Wanted(kinds, "deliverable"))
    ENSEMBLE_RETURN_IF_ERROR(FindInto(ctx, kDeliverableTerms, query, holding, out));
  std::vector<store::Value> params = {store::Value(ctx.space_id)};
  for (const std::set<std::string>* ids : {&own, &holding}) {
    for (const std::string& id : *ids) {
      if (ids == &holding && own.contains(id)) continue;
      params.push_back(store::Value(id));
    }
  }
  if (params.size() == 1) return Status::Ok();
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query(SelectOf(k, params.size() - 1), params));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::vector<store::Value>& row = rows.rows[i];
    SearchRecord record{std::string(k.kind), store::AsText(row[0]), store::AsText(row[2])};
    record.updated_at = store::AsInt(row[1]);
    for (std::size_t t = 0; t < k.texts.size(); ++t)
      record.body.push_back({store::AsText(row[3 + t]), k.texts[t].weight});
    std::size_t next = 3 + k.texts.size();
    json result = {{"kind", record.kind}, {"id", record.id}, {"title", record.title}};
    if (k.has_status) {
      result["status"] = store::AsText(row[next]);
      record.open = IsOpen(k.kind, result["status"].get<std::string>());
    }
    if (k.has_due && !store::IsNull(row[next + 1])) result["due"] = store::AsText(row[next + 1]);
    if (k.kind == "task" || k.kind == "page") {
      const store::Value& project = row[next + (k.has_status ? 1 : 0) + (k.has_due ? 1 : 0)];
      if (!store::IsNull(project)) record.project = store::AsText(project);
    }
    if (k.kind == "project") record.project = record.id;
    if (k.kind == "person" && !record.body[2].text.empty()) result["email"] = record.body[2].text;
    const std::string project_id = record.id;
    const std::string project_title = record.title;
    const int64_t updated_at = record.updated_at;
    // A project read only for its deliverables is not itself a candidate.
    if (own.contains(project_id)) {
      out.records.push_back(std::move(record));
      out.results.push_back(std::move(result));
    }
    if (!holding.contains(project_id)) continue;
    // A project's deliverables are found by their own titles.
    const json deliverables = json::parse(store::AsText(row[next + 2]), nullptr, false);
    if (!deliverables.is_array()) continue;
    for (const json& d : deliverables) {
      const std::string d_title = d.value("title", std::string());
      if (d_title.empty()) continue;
      const bool done = d.value("done", false);
      SearchRecord deliverable{"deliverable", d.value("id", std::string()), d_title};
      deliverable.updated_at = updated_at;
      deliverable.open = !done;
      deliverable.project = project_id;
      out.records.push_back(std::move(deliverable));
      out.results.push_back({{"kind", "deliverable"},
                             {"id", d.value("id", std::string())},
                             {"title", d_title},
                             {"done", done},
                             {"project", {{"id", project_id}, {"title", project_title}}}});
    }
  }
  return Status::Ok();
}

// The snippet of a ranked record whose title lacks a word of the query: from
// the first body text holding one.
void AddSnippet(const SearchQuery& query, const SearchRecord& record, json& result) {
  const auto& words = query.words;
  // Placed around the first kept word, not a stop word or a quote.
  std::string kept;
  for (const auto& word : words) {
    for (const std::string& token : word) kept += (kept.empty() ? "" : " ") + token;
  }
  if (std::all_of(words.begin(), words.end(),
                  [&](const auto& w) { return HoldsWord(record.title, w); }))
    return;
  for (const SearchField& f : record.body) {
    if (std::any_of(words.begin(), words.end(),
                    [&](const auto& w) { return HoldsWord(f.text, w); })) {
      result["snippet"] = SnippetOf(f.text, kept);
      return;
    }
  }
}

}  // namespace

Result<SearchRequest> ParseSearchRequest(std::string_view q, std::string_view kinds,
                                         std::string_view limit, std::string_view near) {
  SearchRequest request;
  if (!text::Trim(near).empty()) {
    Result<refs::RecordHandle> handle = refs::ParseItemRef(near);
    if (!handle.ok()) return InvalidArgument("near: " + handle.status().message());
    request.near = std::move(*handle);
  }
  request.query = std::string(text::Trim(q));
  if (request.query.empty()) return InvalidArgument("q: give the words to search for");
  if (text::CountCodePoints(request.query) > tools::schema::kMaxQueryChars) {
    return InvalidArgument("q: at most " + std::to_string(tools::schema::kMaxQueryChars) +
                           " characters");
  }
  const json known = tools::schema::RecordKind()["enum"];
  while (!kinds.empty()) {
    const std::size_t comma = kinds.find(',');
    const std::string kind(text::Trim(kinds.substr(0, comma)));
    kinds = comma == std::string_view::npos ? std::string_view() : kinds.substr(comma + 1);
    if (kind.empty()) continue;
    if (std::find(known.begin(), known.end(), kind) == known.end())
      return InvalidArgument("kinds: no kind '" + kind + "'");
    request.kinds.push_back(kind);
  }
  if (!limit.empty()) {
    int value = 0;
    const auto [end, error] = std::from_chars(limit.data(), limit.data() + limit.size(), value);
    if (error != std::errc() || end != limit.data() + limit.size() || value < 1 ||
        value > static_cast<int>(kMaxSearchResults)) {
      return InvalidArgument("limit: a number from 1 to " + std::to_string(kMaxSearchResults));
    }
    request.limit = static_cast<std::size_t>(value);
  }
  return request;
}

Result<json> RunSearchWork(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  SearchRequest request;
  request.query = std::string(text::Trim(call.input.value("query", std::string())));
  if (request.query.empty()) return InvalidArgument("query: give the words to search for");
  request.kinds = call.input.value("kinds", json::array());
  request.limit = std::min<std::size_t>(
      kMaxSearchResults,
      static_cast<std::size_t>(tools::IntIn(call.input, "limit", kDefaultSearchResults)));
  if (const json& near = call.input.value("near", json()); near.is_object()) {
    request.near =
        refs::RecordHandle{near.value("kind", std::string()), near.value("id", std::string())};
  }
  return SearchWork(*ctx, request);
}

Result<json> SearchWork(ToolContext& context, const SearchRequest& request) {
  // The route and the app come here without a tool call: the same checks.
  const ToolCall as_call{"hub_search_work", json::object(), &context};
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(as_call));
  const std::string& query = request.query;
  const json& kinds = request.kinds;
  const SearchQuery split = SplitQuery(query);
  Candidates candidates;
  for (const SearchedKind& k : SearchedKinds()) {
    const bool deliverables = k.kind == "project" && Wanted(kinds, "deliverable");
    if (!Wanted(kinds, k.kind) && !deliverables) continue;
    ENSEMBLE_RETURN_IF_ERROR(SearchKind(*ctx, k, kinds, split, candidates));
  }
  std::optional<NearRecord> near;
  if (request.near) {
    ENSEMBLE_ASSIGN_OR_RETURN(near, NearOf(*ctx, request.near->kind, request.near->id));
  }
  std::size_t total = 0;
  std::vector<RankedRecord> matches = RankRecords(split, candidates.records, ctx->now_ms,
                                                  near ? &*near : nullptr, SIZE_MAX, &total);
  const std::size_t limit = std::min(kMaxSearchResults, request.limit);
  json results = json::array();
  std::string listed;
  for (std::size_t i = 0; i < matches.size() && i < limit; ++i) {
    json& r = candidates.results[matches[i].index];
    AddSnippet(split, candidates.records[matches[i].index], r);
    listed += (i ? ", " : " ") + r["kind"].get<std::string>() + " " +
              Quoted(r["title"].get<std::string>());
    results.push_back(r);
  }
  // The total counts the matches among the records read: each kind's best
  // 30 by the index. `more` says a kind had further ones, which narrowing the
  // words or the kinds reaches.
  json data = {{"results", results}, {"total", total}};
  std::vector<std::string> unkept = UnkeptKinds(kinds);
  std::string summary =
      total == 0 ? "Nothing in this space matches " + Quoted(query) + "."
                 : "Found " + text::CountText(total, "match", "matches") + " for " + Quoted(query) +
                       ":" + listed +
                       (total > results.size()
                            ? "; and " + std::to_string(total - results.size()) + " more."
                            : ".");
  if (candidates.more) {
    data["more"] = true;
    summary += " More records hold these words than a search reads: add words or name the kinds.";
  }
  if (!unkept.empty()) {
    data["notKept"] = unkept;
    summary += " " + UnkeptText(unkept) + ", so they were not searched.";
  }
  return json{{"summary", summary}, {"data", std::move(data)}};
}

}  // namespace ensemble::core::context
