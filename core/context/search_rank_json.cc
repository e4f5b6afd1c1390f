#include "core/context/search_rank_json.h"

#include <string>
#include <vector>

#include "core/context/search_rank.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;

// Cases are small: a vector with more records is a mistake, not a workload.
constexpr std::size_t kMaxJsonRecords = 1000;

Result<std::string> Text(const json& in, const char* key, bool required) {
  auto it = in.find(key);
  if (it == in.end() || it->is_null()) {
    if (required) return InvalidArgument(std::string(key) + " is required");
    return std::string();
  }
  if (!it->is_string()) return InvalidArgument(std::string(key) + " must be a string");
  return it->get<std::string>();
}

Result<int64_t> Integer(const json& in, const char* key, int64_t fallback) {
  auto it = in.find(key);
  if (it == in.end()) return fallback;
  if (!it->is_number_integer()) return InvalidArgument(std::string(key) + " must be an integer");
  return it->get<int64_t>();
}

Result<std::set<std::string>> Refs(const json& in, const char* key) {
  std::set<std::string> out;
  auto it = in.find(key);
  if (it == in.end()) return out;
  if (!it->is_array()) return InvalidArgument(std::string("near.") + key + " must be a list");
  for (const json& r : *it) {
    if (!r.is_string()) return InvalidArgument(std::string("near.") + key + " holds refs");
    out.insert(r.get<std::string>());
  }
  return out;
}

Result<SearchRecord> RecordOf(const json& in) {
  if (!in.is_object()) return InvalidArgument("each record is an object");
  SearchRecord r;
  ENSEMBLE_ASSIGN_OR_RETURN(r.kind, Text(in, "kind", true));
  ENSEMBLE_ASSIGN_OR_RETURN(r.id, Text(in, "id", true));
  ENSEMBLE_ASSIGN_OR_RETURN(r.title, Text(in, "title", true));
  ENSEMBLE_ASSIGN_OR_RETURN(r.project, Text(in, "project", false));
  ENSEMBLE_ASSIGN_OR_RETURN(r.updated_at, Integer(in, "updatedAt", 0));
  if (auto open = in.find("open"); open != in.end()) {
    if (!open->is_boolean()) return InvalidArgument("open must be true or false");
    r.open = open->get<bool>();
  }
  if (auto body = in.find("body"); body != in.end()) {
    if (!body->is_array()) return InvalidArgument("body must be a list of fields");
    for (const json& f : *body) {
      if (!f.is_object()) return InvalidArgument("each body field is an object");
      SearchField field;
      ENSEMBLE_ASSIGN_OR_RETURN(field.text, Text(f, "text", true));
      ENSEMBLE_ASSIGN_OR_RETURN(field.weight, Integer(f, "weight", kPoint));
      r.body.push_back(std::move(field));
    }
  }
  return r;
}

}  // namespace

json SplitQueryJson(std::string_view query) {
  const SearchQuery q = SplitQuery(query);
  json words = json::array();
  for (const std::vector<std::string>& w : q.words) words.push_back(JoinTokens(w));
  return {{"words", std::move(words)}, {"phrase", JoinTokens(q.phrase)}};
}

Result<json> RankJson(const json& in) {
  if (!in.is_object()) return InvalidArgument("a ranking case is an object");
  ENSEMBLE_ASSIGN_OR_RETURN(std::string query, Text(in, "query", true));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t now, Integer(in, "now", 0));
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t limit, Integer(in, "limit", 50));
  if (limit < 1) return InvalidArgument("limit must be at least 1");
  auto records_in = in.find("records");
  if (records_in == in.end() || !records_in->is_array())
    return InvalidArgument("records must be a list");
  if (records_in->size() > kMaxJsonRecords) return InvalidArgument("too many records");
  std::vector<SearchRecord> records;
  for (const json& r : *records_in) {
    ENSEMBLE_ASSIGN_OR_RETURN(SearchRecord record, RecordOf(r));
    records.push_back(std::move(record));
  }
  std::optional<NearRecord> near;
  if (auto n = in.find("near"); n != in.end() && !n->is_null()) {
    if (!n->is_object()) return InvalidArgument("near must be an object");
    near.emplace();
    ENSEMBLE_ASSIGN_OR_RETURN(near->links, Refs(*n, "links"));
    ENSEMBLE_ASSIGN_OR_RETURN(near->relations, Refs(*n, "relations"));
    ENSEMBLE_ASSIGN_OR_RETURN(near->project, Text(*n, "project", false));
  }
  json results = json::array();
  for (const RankedRecord& r : RankRecords(SplitQuery(query), records, now, near ? &*near : nullptr,
                                           static_cast<std::size_t>(limit))) {
    results.push_back(
        {{"ref", RefKey(records[r.index].kind, records[r.index].id)}, {"score", r.score}});
  }
  return json{{"results", std::move(results)}};
}

}  // namespace ensemble::core::context
