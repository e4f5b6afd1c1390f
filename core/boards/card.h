// A card on a custom board: a task, or a note of its own text, in one of the
// board's columns. Cards are a synced kind ("card", table board_cards) with
// the generic mutators of core/records, behind checks that need the store:
//
//   card.create  {id, spaceId, board, column, task?, note?, position?}
//     the board exists in spaceId and is live (else NOT_FOUND, or
//     FAILED_PRECONDITION for a board in Trash), the column is one of its
//     columns (INVALID_ARGUMENT), and a card holds exactly one of a task
//     (a live task of spaceId; else NOT_FOUND) or a non-empty note. A task
//     is on a board at most once (ALREADY_EXISTS names the card to move).
//   card.update  {id, fields: {column?, position?, note?}, base?}
//     the generic _base rule; a new column must be one of the board's
//     columns; a card keeps its board and its task (INVALID_ARGUMENT).
//     Dragging a card is {fields: {column, position}, base: {column,
//     position}}: two devices moving one card to different columns conflict
//     (SAVE_CONFLICT), a move and a note edit merge.
//   card.delete / card.restore {id}: soft, as every kind; the task stays.
//
// Deleting a board leaves its cards as records (they come back with it).
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_BOARDS_CARD_H_
#define ENSEMBLE_CORE_BOARDS_CARD_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::boards {

inline constexpr std::string_view kCardKind = "card";
inline constexpr std::string_view kCardTable = "board_cards";

// The spec names no cap on a note card; a card is a few lines, longer text
// belongs in a page.
inline constexpr size_t kMaxNoteChars = 2000;
// Positions order cards within a column (lower first); clients leave gaps.
inline constexpr int64_t kMaxCardPosition = 1'000'000'000;

// Fields: board (id, required), column (column id, required), task (id or
// null), note (text, default ""), position (0..kMaxCardPosition, default 0).
extern const records::RecordKind kCardRecordKind;

// Migration 16: the boards' columns and tiles, and the board_cards table.
extern const store::Migration kAddBoardColumnsAndCards;

Status CreateCard(sync::MutationContext& ctx, const nlohmann::json& args);
Status UpdateCard(sync::MutationContext& ctx, const nlohmann::json& args);

// Registers card.create/update/delete/restore.
void RegisterCardMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_CARD_H_
