// A page: a title and a Markdown body (kept exactly as written, white space
// included), optionally in a project or under a parent page, with a
// revision that counts its body changes.
// Its mutators ("page.create", ".delete", ".restore") come from
// core/records; "page.update" is the generic update plus the revision rule
// below.
//
// The revision rule (spec 000 §8.1, 004 §12): "page.update" may carry the
// `revision` the edit was made on; when the page's revision is not that one,
// the update is refused with VERSION_CONFLICT and kStaleRevisionMessage,
// and nothing is written, instead of overwriting newer work. Every update
// that changes the body (or the title) bumps the revision by one; the
// revision is the mutator's to keep, never a field an update sets.
//
// Blocks: the body read as Markdown blocks (paragraphs, lists, headings:
// runs of lines between blank lines). A block's id is derived from the page
// and its position, so it names one block of one revision only; the tools
// send the revision with block edits, and the rule above refuses them once
// the page changed.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_PAGES_PAGE_H_
#define ENSEMBLE_CORE_PAGES_PAGE_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::pages {

inline constexpr std::string_view kKind = "page";
inline constexpr std::string_view kTable = "pages";

inline constexpr size_t kMaxTitleChars = 500;
// Large enough for long notes; attachments carry anything bigger.
inline constexpr size_t kMaxBodyChars = 200000;
// The tool schema's bound (page_tools.cc: revision is Int(0, 2000000000)).
inline constexpr int64_t kMaxRevision = 2000000000;
// The readable refusal of a stale revision (spec 000 §8.1: stale page
// revisions "fail readably instead of overwriting newer work").
inline constexpr std::string_view kStaleRevisionMessage =
    "This page changed since you opened it; read it again and make your edit on the new "
    "revision, so newer work is not overwritten";

// Fields: title (required), body (default ""), project and parent (record
// ids or null), revision (1 on create; kept by page.update).
extern const records::RecordKind kPageKind;

// The schema step for pages, in the hub's migration list (its later columns
// come with projects::kAddProjectPagePersonFields).
extern const store::Migration kCreatePageTable;

// {id, fields, base?, expectedVersion?, revision?}: the generic update, with
// the revision rule above. details on a stale revision: {current, revision,
// version}.
Status UpdatePage(sync::MutationContext& ctx, const nlohmann::json& args);

void RegisterMutators(sync::MutatorRegistry& registry);

struct Block {
  std::string id;
  std::string markdown;
};

// The body's blocks, in order; an empty body has none.
std::vector<Block> SplitBlocks(const std::string& page_id, const std::string& body);
// The body of `blocks`: their Markdown joined by one blank line.
std::string JoinBlocks(const std::vector<Block>& blocks);
// The id of the block at `index` of page `page_id` (a valid record id).
std::string BlockId(const std::string& page_id, size_t index);

}  // namespace ensemble::core::pages

#endif  // ENSEMBLE_CORE_PAGES_PAGE_H_
