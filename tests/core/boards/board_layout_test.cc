// The board overview's layout record (core/boards/board_layout.h): its tiles
// checked, one live layout per space (a create or restore beside another is
// ALREADY_EXISTS), an edit based on another version refused, and only the
// space's owner writing it.

#include "core/boards/board_layout.h"

#include <gtest/gtest.h>

#include <string>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "tests/core/hub_store_fixture.h"

namespace ensemble::core::boards {
namespace board_layout_test {

using nlohmann::json;

constexpr char kLayout[] = "01JB0000000000000000000Y01";
constexpr char kSecond[] = "01JB0000000000000000000Y02";
constexpr char kThird[] = "01JB0000000000000000000Y03";
constexpr char kBoard[] = "01JB0000000000000000000B01";

json Tile(int x, int y) { return {{"id", kBoard}, {"x", x}, {"y", y}, {"w", 2}, {"h", 1}}; }

class BoardLayoutTest : public HubStoreTest {};

TEST_F(BoardLayoutTest, OneLayoutPerSpace) {
  ASSERT_TRUE(Mutate("board_layout.create",
                     {{"id", kLayout}, {"spaceId", "here"}, {"tiles", json::array({Tile(0, 0)})}})
                  .ok());
  EXPECT_EQ(Row(kLayoutRecordKind, kLayout)["tiles"], json::array({Tile(0, 0)}));
  Status twice = Mutate("board_layout.create",
                        {{"id", kSecond}, {"spaceId", "here"}, {"tiles", json::array()}});
  EXPECT_EQ(twice.code(), codes::kAlreadyExists);
  EXPECT_EQ(details_["layout"], kLayout);
  // Another space has its own.
  EXPECT_TRUE(Mutate("board_layout.create",
                     {{"id", kSecond}, {"spaceId", "there"}, {"tiles", json::array()}})
                  .ok());
  // A layout in Trash comes back only while its space has no other.
  ASSERT_TRUE(Mutate("board_layout.delete", {{"id", kLayout}}).ok());
  ASSERT_TRUE(Mutate("board_layout.create",
                     {{"id", kThird}, {"spaceId", "here"}, {"tiles", json::array({Tile(1, 1)})}})
                  .ok());
  EXPECT_EQ(Mutate("board_layout.restore", {{"id", kLayout}}).code(), codes::kAlreadyExists);
  ASSERT_TRUE(Mutate("board_layout.delete", {{"id", kThird}}).ok());
  EXPECT_TRUE(Mutate("board_layout.restore", {{"id", kLayout}}).ok());
}

TEST_F(BoardLayoutTest, TilesAreCheckedAndAnEditOfAnotherVersionIsRefused) {
  auto one = [](json tile) { return json::array({std::move(tile)}); };
  const json bad[] = {
      json::object(),                                                  // not a list
      one({{"id", kBoard}, {"x", 0}, {"y", 0}, {"w", 0}, {"h", 1}}),   // no width
      one({{"id", kBoard}, {"x", -1}, {"y", 0}, {"w", 1}, {"h", 1}}),  // left of the grid
      one({{"id", kBoard}, {"x", 0}, {"y", 0}, {"w", 1}}),             // no height
      json::array({Tile(0, 0), Tile(1, 0)}),                           // one board twice
      one({{"id", kBoard}, {"x", 0}, {"y", 0}, {"w", 1}, {"h", 1}, {"z", 2}}),
  };
  for (const json& tiles : bad) ASSERT_TRUE(tiles.is_object() || tiles.is_array());
  EXPECT_TRUE(CheckLayoutTiles(json::array({Tile(0, 0)})).ok());

  for (const json& tiles : bad) {
    EXPECT_EQ(
        Mutate("board_layout.create", {{"id", kLayout}, {"spaceId", "here"}, {"tiles", tiles}})
            .code(),
        codes::kInvalidArgument)
        << tiles.dump();
  }
  json many = json::array();
  for (size_t i = 0; i <= kMaxLayoutTiles; ++i) {
    many.push_back({{"id", "b" + std::to_string(i)}, {"x", 0}, {"y", 0}, {"w", 1}, {"h", 1}});
  }
  EXPECT_EQ(CheckLayoutTiles(many).code(), codes::kInvalidArgument);
  ASSERT_TRUE(Mutate("board_layout.create",
                     {{"id", kLayout}, {"spaceId", "here"}, {"tiles", json::array({Tile(0, 0)})}})
                  .ok());
  EXPECT_EQ(Mutate("board_layout.update", {{"id", kLayout},
                                           {"fields", {{"tiles", json::array({Tile(2, 0)})}}},
                                           {"expectedVersion", 7}})
                .code(),
            codes::kVersionConflict);
  EXPECT_EQ(Row(kLayoutRecordKind, kLayout)["tiles"], json::array({Tile(0, 0)}));
}

TEST_F(BoardLayoutTest, OnlyTheSpacesOwnerWritesIt) {
  ASSERT_TRUE(sync::SetMember(*db_, "here", "owner", sync::Role::kOwner).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "here", "editor", sync::Role::kEditor).ok());
  const json args = {{"id", kLayout}, {"spaceId", "here"}, {"tiles", json::array()}};
  EXPECT_TRUE(
      sync::AuthorizeMutation(*db_, hub::Config(), "owner", "board_layout.create", args).ok());
  EXPECT_EQ(
      sync::AuthorizeMutation(*db_, hub::Config(), "editor", "board_layout.create", args).code(),
      codes::kForbidden);
}

}  // namespace board_layout_test
}  // namespace ensemble::core::boards
