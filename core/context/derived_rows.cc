#include "core/context/derived_rows.h"

#include "core/context/record_links.h"
#include "core/context/search_index.h"

namespace ensemble::core::context {
namespace {

Status RecordWritten(store::Database& db, std::string_view kind, const std::string& id) {
  ENSEMBLE_RETURN_IF_ERROR(IndexRecord(db, kind, id));
  return LinkRecord(db, kind, id);
}

Status Cleared(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(ClearSearchIndex(db));
  return ClearRecordLinks(db);
}

}  // namespace

sync::DerivedRows DerivedRows() { return {RecordWritten, Cleared}; }

}  // namespace ensemble::core::context
