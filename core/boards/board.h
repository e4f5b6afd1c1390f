// A board: a titled view that groups work, with a description.
// Its mutators ("board.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_H_

#include <cstddef>
#include <string_view>

#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::boards {

inline constexpr std::string_view kKind = "board";
inline constexpr std::string_view kTable = "boards";

inline constexpr size_t kMaxTitleChars = 500;
inline constexpr size_t kMaxDescriptionChars = 10000;

// Fields: title (required), description (default "").
extern const records::RecordKind kBoardKind;

// The schema step for boards, in the hub's migration list.
extern const store::Migration kCreateBoardTable;

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_H_
