// The link index (spec 004 §5 "The context graph"): what the context graph
// reads to answer "what links to this record" with one indexed query. A row
// per link a live record makes: a task's or a project's people, a task's
// depends_on and blocks, a project's deliverables, and every ensemble://
// handle in a record's text (its mentions). The lists themselves stay in the
// records' JSON columns, which neither store can index the same way; this
// table is derived from them and never synced.
//
// Kept, like the search index, by the sync machinery's DerivedRows hooks in
// the transaction of every write (derived_rows.h). A link is stored whatever
// it points at: the reads join the live records of the space, so a link into
// Trash or another space is never shown.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_CONTEXT_RECORD_LINKS_H_
#define ENSEMBLE_CORE_CONTEXT_RECORD_LINKS_H_

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::context {

// The kinds of link (record_links.rel).
inline constexpr std::string_view kPeopleLink = "people";            // task, project -> person
inline constexpr std::string_view kDependsOnLink = "depends_on";     // task -> task
inline constexpr std::string_view kBlocksLink = "blocks";            // task -> task
inline constexpr std::string_view kDeliverableLink = "deliverable";  // project -> deliverable
inline constexpr std::string_view kMentionsLink = "mentions";        // any -> any

// Handles of one record's text the index keeps (a pasted list of links is
// still one record's mentions, not a graph of its own).
inline constexpr std::size_t kMaxMentionLinks = 50;

// Migration 37: record_links, tasks and pages by project, pages by parent,
// and every live record's links.
extern const store::Migration kCreateRecordLinks;

// Brings the links of records (kind, id) up to date with the store:
// replaced, or removed when one is gone or in Trash. Kinds that link
// nothing: nothing. A kind's records are read a chunk at a time.
Status LinkRecords(store::Database& db,
                   std::span<const std::pair<std::string, std::string>> records);

// Empties the index (every synced table was emptied).
Status ClearRecordLinks(store::Database& db);

// Empties the index and links every live record again.
Status RebuildRecordLinks(store::Database& db);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_RECORD_LINKS_H_
