// Desk lists (core/desk/desk_list.h) over an in-memory store migrated as the
// hub's: lines on a live list of their own space, the caps, Trash hiding a
// list's lines, ticks from two devices both kept, and that only the space's
// owner writes them.

#include "core/desk/desk_list.h"

#include <gtest/gtest.h>

#include <string>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "tests/core/hub_store_fixture.h"

namespace ensemble::core::desk {
namespace desk_list_test {

using nlohmann::json;

constexpr char kList[] = "01JB0000000000000000000D01";
constexpr char kListThere[] = "01JB0000000000000000000D02";
constexpr char kMilk[] = "01JB0000000000000000000E01";
constexpr char kBread[] = "01JB0000000000000000000E02";

class DeskListTest : public HubStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        Mutate("desk_list.create", {{"id", kList}, {"spaceId", "here"}, {"title", " Shop "}}).ok());
    ASSERT_TRUE(
        Mutate("desk_list.create", {{"id", kListThere}, {"spaceId", "there"}, {"title", "Far"}})
            .ok());
  }

  Status AddLine(const std::string& id, const std::string& text, int64_t position = 0,
                 const std::string& list = kList, const std::string& space = "here") {
    return Mutate(
        "desk_list_item.create",
        {{"id", id}, {"spaceId", space}, {"list", list}, {"text", text}, {"position", position}});
  }

  json Lists(const std::string& space = "here") {
    auto lists = ReadDeskLists(*db_, space);
    EXPECT_TRUE(lists.ok()) << lists.status().message();
    return lists.ok() ? *lists : json();
  }
};

TEST_F(DeskListTest, LinesReadBackOnTheirListInPositionOrder) {
  ASSERT_TRUE(AddLine(kBread, "bread", 20).ok());
  ASSERT_TRUE(AddLine(kMilk, "  milk ", 10).ok());
  const json lists = Lists();
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0]["title"], "Shop");
  ASSERT_EQ(lists[0]["items"].size(), 2u);
  EXPECT_EQ(lists[0]["items"][0]["id"], kMilk);
  EXPECT_EQ(lists[0]["items"][0]["text"], "milk");
  EXPECT_EQ(lists[0]["items"][0]["done"], false);
  EXPECT_EQ(lists[0]["items"][1]["text"], "bread");
  // The other space's list is that space's alone.
  EXPECT_EQ(Lists("there").size(), 1u);
  EXPECT_TRUE(Lists("there")[0]["items"].empty());
}

TEST_F(DeskListTest, OneListsLinesReadAsTheWholeDeskShowsThem) {
  ASSERT_TRUE(AddLine(kBread, "bread", 20).ok());
  ASSERT_TRUE(AddLine(kMilk, "milk", 10).ok());
  ASSERT_TRUE(Mutate("desk_list_item.update", {{"id", kMilk}, {"fields", {{"done", 1}}}}).ok());
  auto lines = ReadDeskLines(*db_, "here", kList);
  ASSERT_TRUE(lines.ok()) << lines.status().message();
  EXPECT_EQ(*lines, Lists()[0]["items"]);
  EXPECT_EQ((*lines)[0]["done"], true);
  // Another space's list, or one named from the wrong space, has no lines here.
  ASSERT_TRUE(AddLine("01JB0000000000000000000E03", "far", 0, kListThere, "there").ok());
  auto elsewhere = ReadDeskLines(*db_, "here", kListThere);
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_TRUE(elsewhere->empty());
  ASSERT_TRUE(Mutate("desk_list_item.delete", {{"id", kBread}}).ok());
  EXPECT_EQ(ReadDeskLines(*db_, "here", kList)->size(), 1u);
}

TEST_F(DeskListTest, ALineGoesOnALiveListOfItsOwnSpace) {
  EXPECT_EQ(AddLine(kMilk, "milk", 0, kListThere).code(), codes::kNotFound);
  EXPECT_EQ(AddLine(kMilk, "milk", 0, "01JB0000000000000000000D09").code(), codes::kNotFound);
  EXPECT_EQ(AddLine(kMilk, "   ").code(), codes::kInvalidArgument);
  EXPECT_EQ(
      Mutate("desk_list_item.create", {{"id", kMilk}, {"spaceId", "here"}, {"text", "x"}}).code(),
      codes::kInvalidArgument);
  ASSERT_TRUE(Mutate("desk_list.delete", {{"id", kList}}).ok());
  Status st = AddLine(kMilk, "milk");
  EXPECT_EQ(st.code(), codes::kFailedPrecondition);
  EXPECT_NE(st.message().find("Trash"), std::string::npos) << st.message();
  EXPECT_TRUE(Lists().empty());
}

TEST_F(DeskListTest, ALineKeepsItsList) {
  ASSERT_TRUE(AddLine(kMilk, "milk").ok());
  Status st = Mutate("desk_list_item.update", {{"id", kMilk}, {"fields", {{"list", kListThere}}}});
  EXPECT_EQ(st.code(), codes::kInvalidArgument);
  EXPECT_TRUE(
      Mutate("desk_list_item.update", {{"id", kMilk}, {"fields", {{"text", "oat milk"}}}}).ok());
  EXPECT_EQ(Lists()[0]["items"][0]["text"], "oat milk");
}

TEST_F(DeskListTest, TicksOfTwoLinesFromTwoDevicesAreBothKept) {
  ASSERT_TRUE(AddLine(kMilk, "milk", 1).ok());
  ASSERT_TRUE(AddLine(kBread, "bread", 2).ok());
  // Both devices read both lines open; each ticks one.
  for (const char* id : {kMilk, kBread}) {
    ASSERT_TRUE(Mutate("desk_list_item.update",
                       {{"id", id}, {"fields", {{"done", 1}}}, {"base", {{"done", 0}}}})
                    .ok());
  }
  const json items = Lists()[0]["items"];
  EXPECT_EQ(items[0]["done"], true);
  EXPECT_EQ(items[1]["done"], true);
  // One line renamed on two devices to two names is a real conflict.
  ASSERT_TRUE(Mutate("desk_list_item.update",
                     {{"id", kMilk}, {"fields", {{"text", "oat"}}}, {"base", {{"text", "milk"}}}})
                  .ok());
  EXPECT_EQ(Mutate("desk_list_item.update",
                   {{"id", kMilk}, {"fields", {{"text", "soy"}}}, {"base", {{"text", "milk"}}}})
                .code(),
            codes::kSaveConflict);
}

TEST_F(DeskListTest, TrashHidesAListWithItsLinesAndRestoreBringsThemBack) {
  ASSERT_TRUE(AddLine(kMilk, "milk").ok());
  ASSERT_TRUE(AddLine(kBread, "bread").ok());
  ASSERT_TRUE(Mutate("desk_list_item.delete", {{"id", kBread}}).ok());
  ASSERT_TRUE(Mutate("desk_list.delete", {{"id", kList}}).ok());
  EXPECT_TRUE(Lists().empty());
  ASSERT_TRUE(Mutate("desk_list.restore", {{"id", kList}}).ok());
  const json lists = Lists();
  ASSERT_EQ(lists.size(), 1u);
  ASSERT_EQ(lists[0]["items"].size(), 1u);  // The line removed on its own stays removed.
  EXPECT_EQ(lists[0]["items"][0]["id"], kMilk);
}

TEST_F(DeskListTest, AListHoldsAtMostItsCapOfLiveLines) {
  auto nth = [&](size_t i) {
    std::string s = "01JB0000000000000000000000";
    const std::string n = std::to_string(i);
    return s.replace(s.size() - n.size(), n.size(), n);
  };
  for (size_t i = 0; i < kMaxDeskListItems; ++i) {
    ASSERT_TRUE(AddLine(nth(i + 1), "line " + std::to_string(i)).ok()) << i;
  }
  Status st = AddLine(nth(kMaxDeskListItems + 1), "one more");
  EXPECT_EQ(st.code(), codes::kLimitReached);
  EXPECT_NE(st.message().find(std::to_string(kMaxDeskListItems)), std::string::npos);
  ASSERT_TRUE(Mutate("desk_list_item.delete", {{"id", nth(1)}}).ok());
  EXPECT_TRUE(AddLine(nth(kMaxDeskListItems + 1), "one more").ok());
}

TEST_F(DeskListTest, ADeskHoldsAtMostItsCapOfLists) {
  // Two lists exist (one in each space); "here" has one.
  for (size_t i = 1; i < kMaxDeskLists; ++i) {
    std::string id = "01JB00000000000000000G0000";
    const std::string n = std::to_string(i);
    id.replace(id.size() - n.size(), n.size(), n);
    ASSERT_TRUE(Mutate("desk_list.create", {{"id", id}, {"spaceId", "here"}, {"title", n}}).ok())
        << i;
  }
  EXPECT_EQ(Mutate("desk_list.create",
                   {{"id", "01JB00000000000000000H0000"}, {"spaceId", "here"}, {"title", "x"}})
                .code(),
            codes::kLimitReached);
  // Another desk is counted apart.
  EXPECT_TRUE(Mutate("desk_list.create",
                     {{"id", "01JB00000000000000000H0001"}, {"spaceId", "there"}, {"title", "x"}})
                  .ok());
}

TEST_F(DeskListTest, OnlyTheSpacesOwnerWritesDeskLists) {
  ASSERT_TRUE(sync::SetMember(*db_, "here", "owner", sync::Role::kOwner).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "here", "editor", sync::Role::kEditor).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "here", "guest", sync::Role::kGuest).ok());
  const json create = {{"id", kMilk}, {"spaceId", "here"}, {"list", kList}, {"text", "x"}};
  const json update = {{"id", kList}, {"fields", {{"title", "y"}}}};
  for (const auto& [name, args] :
       {std::pair{"desk_list_item.create", create}, std::pair{"desk_list.update", update}}) {
    EXPECT_TRUE(sync::AuthorizeMutation(*db_, hub::Config(), "owner", name, args).ok()) << name;
    for (const char* who : {"editor", "guest"}) {
      Status st = sync::AuthorizeMutation(*db_, hub::Config(), who, name, args);
      EXPECT_EQ(st.code(), codes::kForbidden) << name << " " << who;
    }
  }
  Status st = sync::AuthorizeMutation(*db_, hub::Config(), "editor", "desk_list.update", update);
  EXPECT_NE(st.message().find("desk lists"), std::string::npos) << st.message();
}

}  // namespace desk_list_test
}  // namespace ensemble::core::desk
