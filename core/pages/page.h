// A page: a title and a body of text (kept exactly as written, white
// space included).
// Its mutators ("page.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_PAGES_PAGE_H_
#define ENSEMBLE_CORE_PAGES_PAGE_H_

#include <cstddef>
#include <string_view>

#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::pages {

inline constexpr std::string_view kKind = "page";
inline constexpr std::string_view kTable = "pages";

inline constexpr size_t kMaxTitleChars = 500;
// Large enough for long notes; attachments carry anything bigger.
inline constexpr size_t kMaxBodyChars = 200000;

// Fields: title (required), body (default "").
extern const records::RecordKind kPageKind;

// The schema step for pages, in the hub's migration list.
extern const store::Migration kCreatePageTable;

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::pages

#endif  // ENSEMBLE_CORE_PAGES_PAGE_H_
