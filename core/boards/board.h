// A custom board (/board?board=<id>): a titled view with a description, an
// ordered list of columns and the tiles of its overview. Its cards are
// records of their own (core/boards/card.h). Its mutators ("board.create",
// ".update", ".delete", ".restore") come from core/records; this file holds
// only what is particular to the kind, and the limits the board tools'
// schemas share with it.
//
// columns: [{id, title}], in order; a card names its column by id, so a
// column keeps its id when it is renamed or moved. tiles: [{kind, title?}].
// Both are stored as JSON text (core/records kJson).
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::boards {

inline constexpr std::string_view kKind = "board";
inline constexpr std::string_view kTable = "boards";

inline constexpr size_t kMaxTitleChars = 500;
inline constexpr size_t kMaxDescriptionChars = 10000;

// The spec names no caps for columns or tiles; a board wider than 30
// columns is no longer readable on a screen.
inline constexpr size_t kMaxColumns = 30;
inline constexpr size_t kMaxColumnTitleChars = 100;
// Column ids are made by clients (record ids, or short names like "todo").
inline constexpr size_t kMaxColumnIdChars = 64;
// Bytes of the columns as JSON text: 30 full columns fit.
inline constexpr size_t kMaxColumnsBytes = 16 * 1024;
inline constexpr size_t kMaxTiles = 50;
inline constexpr size_t kMaxTileKindChars = 40;
inline constexpr size_t kMaxTileTitleChars = 200;
inline constexpr size_t kMaxTilesBytes = 32 * 1024;

// Fields: title (required), description (default ""), columns (default []),
// tiles (default []).
extern const records::RecordKind kBoardKind;

// The schema step that first made the boards table (title, description).
extern const store::Migration kCreateBoardTable;

// OK if `columns` is a list of at most kMaxColumns objects {id, title}, each
// with a non-empty id and title within their limits, ids distinct.
Status CheckColumns(const nlohmann::json& columns);
// OK if `tiles` is a list of at most kMaxTiles objects {kind, title?}.
Status CheckTiles(const nlohmann::json& tiles);

// The column of `columns` with id `column_id`, or nullptr.
const nlohmann::json* FindColumn(const nlohmann::json& columns, std::string_view column_id);

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_H_
