#include "core/pages/page.h"

#include "core/base/id.h"
#include "core/records/record_mutators.h"

namespace ensemble::core::pages {
namespace {

using nlohmann::json;

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "body", .max_chars = kMaxBodyChars},
    {.name = "project", .type = records::FieldType::kId, .nullable = true},
    {.name = "parent", .type = records::FieldType::kId, .nullable = true},
    {.name = "revision", .type = records::FieldType::kInt, .min = 1, .max = kMaxRevision},
};

// The digits of record ids (core/base/id.cc), for block ids.
constexpr std::string_view kIdDigits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
// A block id is the page id's first kBlockPrefixChars characters and the
// block's index in base 32.
constexpr size_t kBlockPrefixChars = kIdLength - 6;

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

const records::RecordKind kPageKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreatePageTable = {
    5, "create pages",
    "CREATE TABLE pages ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " body TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX pages_space ON pages (space_id, id);"
    "CREATE INDEX pages_row_version ON pages (row_version);"};

Status UpdatePage(sync::MutationContext& ctx, const json& args) {
  if (!args.is_object()) return InvalidArgument("page.update takes an object");
  json generic = args;
  json revision = nullptr;
  if (auto it = generic.find("revision"); it != generic.end()) {
    revision = *it;
    generic.erase(it);
    if (!revision.is_number_integer() || revision.get<int64_t>() < 0) {
      return InvalidArgument("revision must be a revision number");
    }
  }
  if (generic.contains("fields") && generic["fields"].is_object() &&
      generic["fields"].contains("revision")) {
    return InvalidArgument(
        "a page's revision is kept by the page; send it as revision, not a field");
  }
  if (!generic.contains("id") || !generic["id"].is_string()) {
    return records::UpdateRecord(kPageKind, ctx, generic);  // Refuses it readably.
  }
  ENSEMBLE_ASSIGN_OR_RETURN(
      auto row, records::ReadRecord(kPageKind, ctx.db(), generic["id"].get<std::string>()));
  if (row && row->value("deleted", int64_t{0}) == 0) {
    const int64_t current = row->value("revision", int64_t{1});
    if (!revision.is_null() && revision.get<int64_t>() != current) {
      ctx.details() = json{{"current", records::FieldsOf(kPageKind, *row)},
                           {"revision", current},
                           {"version", row->value("version", int64_t{0})}};
      return Status(codes::kVersionConflict, std::string(kStaleRevisionMessage));
    }
    const json& fields = generic.value("fields", json::object());
    bool changes_text = false;
    for (const char* name : {"title", "body"}) {
      if (fields.is_object() && fields.contains(name) && (*row)[name] != fields[name]) {
        changes_text = true;
      }
    }
    // Only a write that changes what the page says moves its revision; a
    // move to another project does not make an open editor stale.
    if (changes_text && current < kMaxRevision) generic["fields"]["revision"] = current + 1;
  }
  return records::UpdateRecord(kPageKind, ctx, generic);
}

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kPageKind, registry);
  registry.Register("page.update", UpdatePage);
}

std::string BlockId(const std::string& page_id, size_t index) {
  std::string id = page_id.substr(0, kBlockPrefixChars);
  id.resize(kBlockPrefixChars, '0');
  std::string digits(kIdLength - kBlockPrefixChars, '0');
  for (size_t i = digits.size(); i-- > 0 && index > 0; index /= 32)
    digits[i] = kIdDigits[index % 32];
  return id + digits;
}

std::vector<Block> SplitBlocks(const std::string& page_id, const std::string& body) {
  std::vector<Block> blocks;
  std::string current;
  bool in_fence = false;  // A blank line inside ``` code stays in its block.
  auto flush = [&] {
    if (current.empty()) return;
    blocks.push_back({BlockId(page_id, blocks.size()), current});
    current.clear();
  };
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    std::string_view line(body.data() + start, end - start);
    if (line.substr(0, 3) == "```") in_fence = !in_fence;
    if (!in_fence && IsBlank(line)) {
      flush();
    } else {
      if (!current.empty()) current += '\n';
      current.append(line);
    }
    start = end + 1;
  }
  flush();
  return blocks;
}

std::string JoinBlocks(const std::vector<Block>& blocks) {
  std::string out;
  for (const Block& b : blocks) {
    if (b.markdown.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += b.markdown;
  }
  return out;
}

}  // namespace ensemble::core::pages
