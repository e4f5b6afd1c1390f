#include "core/context/derived_rows.h"

#include "core/context/record_links.h"
#include "core/context/search_index.h"

namespace ensemble::core::context {
namespace {

Status RecordsWritten(store::Database& db,
                      std::span<const std::pair<std::string, std::string>> records) {
  ENSEMBLE_RETURN_IF_ERROR(IndexRecords(db, records));
  return LinkRecords(db, records);
}

Status Cleared(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(ClearSearchIndex(db));
  return ClearRecordLinks(db);
}

}  // namespace

sync::DerivedRows DerivedRows() { return {RecordsWritten, Cleared}; }

}  // namespace ensemble::core::context
