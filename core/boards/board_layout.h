// The board overview's layout (spec 002 §2 "Board overview and layouts"):
// where each custom board of a space sits on the overview, as tiles on a
// grid. One live layout per space, the space owner's to change (read by
// every member). A synced kind ("board_layout", table board_layouts) with
// the generic mutators of core/records, behind one check that needs the
// store:
//
//   board_layout.create {id, spaceId, tiles}: ALREADY_EXISTS (details
//     {layout}) when the space already has a live layout, so two devices
//     laying out an empty overview at once cannot both win.
//   board_layout.update {id, fields: {tiles}, expectedVersion?}: tiles is
//     the complete list; an edit based on another version is a conflict.
//
// tiles: [{id, x, y, w, h}], a board id with its column and row (from the
// top left) and its width and height in grid cells; ids distinct. Stored as
// JSON text (core/records kJson). The ids are ids only: a board deleted
// later keeps its tile until the next edit, and readers skip it.
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_BOARDS_BOARD_LAYOUT_H_
#define ENSEMBLE_CORE_BOARDS_BOARD_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::boards {

inline constexpr std::string_view kLayoutKind = "board_layout";
inline constexpr std::string_view kLayoutTable = "board_layouts";

// The spec names no caps; hub_edit_layout's schema and the check share these.
inline constexpr size_t kMaxLayoutTiles = 50;
inline constexpr int64_t kMaxLayoutColumn = 100;  // x
inline constexpr int64_t kMaxLayoutRow = 1000;    // y
inline constexpr int64_t kMaxLayoutSpan = 100;    // w and h, from 1
inline constexpr size_t kMaxLayoutIdChars = 64;
inline constexpr size_t kMaxLayoutBytes = 16 * 1024;

// Fields: tiles (required).
extern const records::RecordKind kLayoutRecordKind;

// Migration 26: the board_layouts table.
extern const store::Migration kCreateBoardLayoutTable;

// OK if `tiles` is a list of at most kMaxLayoutTiles objects {id, x, y, w,
// h}, every member given and within its limits, ids distinct.
Status CheckLayoutTiles(const nlohmann::json& tiles);

// Registers board_layout.* (create with its one-per-space check, update,
// delete, restore).
void RegisterLayoutMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::boards

#endif  // ENSEMBLE_CORE_BOARDS_BOARD_LAYOUT_H_
