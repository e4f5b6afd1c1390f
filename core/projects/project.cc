#include "core/projects/project.h"

#include <set>
#include <string>

#include "core/base/id.h"
#include "core/records/record_mutators.h"
#include "core/text/utf8.h"

namespace ensemble::core::projects {
namespace {

using nlohmann::json;

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "description", .max_chars = kMaxDescriptionChars},
    {.name = "status", .type = records::FieldType::kEnum, .values = kStatuses},
    {.name = "start", .type = records::FieldType::kDate, .nullable = true},
    {.name = "due", .type = records::FieldType::kDate, .nullable = true},
    {.name = "people", .type = records::FieldType::kIdList, .max_items = kMaxPeople},
    {.name = "deliverables",
     .type = records::FieldType::kJson,
     .max_chars = kMaxDeliverablesBytes,
     .check = CheckDeliverables},
};

}  // namespace

Status CheckDeliverables(const json& deliverables) {
  if (!deliverables.is_array()) return InvalidArgument("deliverables must be a list");
  if (deliverables.size() > kMaxDeliverables) {
    return InvalidArgument("deliverables holds more than " + std::to_string(kMaxDeliverables) +
                           " items");
  }
  std::set<std::string> ids;
  for (const json& d : deliverables) {
    if (!d.is_object()) return InvalidArgument("each deliverable must be an object");
    for (const auto& [key, _] : d.items()) {
      if (key != "id" && key != "title" && key != "due" && key != "done") {
        return InvalidArgument("unknown deliverable field '" + key + "'");
      }
    }
    if (!d.contains("id") || !d["id"].is_string() ||
        !IsValidId(d["id"].get_ref<const std::string&>())) {
      return InvalidArgument("each deliverable needs an id (a record id)");
    }
    if (!ids.insert(d["id"].get<std::string>()).second) {
      return InvalidArgument("deliverable id " + d["id"].get<std::string>() + " appears twice");
    }
    if (!d.contains("title") || !d["title"].is_string() ||
        text::Trim(d["title"].get_ref<const std::string&>()).empty()) {
      return InvalidArgument("each deliverable needs a title");
    }
    const auto& title = d["title"].get_ref<const std::string&>();
    if (!text::IsValidUtf8(title) || text::CountCodePoints(title) > kMaxTitleChars) {
      return InvalidArgument("a deliverable title is longer than " +
                             std::to_string(kMaxTitleChars) + " characters");
    }
    if (d.contains("due") && !d["due"].is_null() &&
        !(d["due"].is_string() && records::IsIsoDate(d["due"].get_ref<const std::string&>()))) {
      return InvalidArgument("a deliverable's due must be a date (YYYY-MM-DD) or null");
    }
    if (d.contains("done") && !d["done"].is_boolean()) {
      return InvalidArgument("a deliverable's done must be true or false");
    }
  }
  return Status::Ok();
}

const records::RecordKind kProjectKind = {kKind, kTable, kFields};

// Shipped: never edit; change the table with a new migration.
const store::Migration kCreateProjectTable = {
    3, "create projects",
    "CREATE TABLE projects ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " description TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX projects_space ON projects (space_id, id);"
    "CREATE INDEX projects_row_version ON projects (row_version);"};

// One column per ALTER: SQLite adds one at a time. Lists default to the
// JSON text of an empty list, as CreateRecord writes them; existing pages
// start at revision 1, as new ones do.
const store::Migration kAddProjectPagePersonFields = {
    17, "project, page and person fields",
    "ALTER TABLE projects ADD COLUMN start TEXT;"
    "ALTER TABLE projects ADD COLUMN due TEXT;"
    "ALTER TABLE projects ADD COLUMN people TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE projects ADD COLUMN deliverables TEXT NOT NULL DEFAULT '[]';"
    "ALTER TABLE pages ADD COLUMN project TEXT;"
    "ALTER TABLE pages ADD COLUMN parent TEXT;"
    "ALTER TABLE pages ADD COLUMN revision BIGINT NOT NULL DEFAULT 1;"
    "ALTER TABLE people ADD COLUMN role TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE people ADD COLUMN team TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE people ADD COLUMN relationship TEXT;"};

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kProjectKind, registry);
}

}  // namespace ensemble::core::projects
