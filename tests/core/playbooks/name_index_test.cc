// core/playbooks/name_index.h: the flat name table routing looks names up in.

#include "core/playbooks/name_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ensemble::core::playbooks {
namespace {

TEST(NameIndex, FindsWhatWasInsertedAndNothingElse) {
  NameIndex index;
  EXPECT_TRUE(index.Insert("hub_list_tasks", 3));
  EXPECT_TRUE(index.Insert("hub_list_tools", 4));
  EXPECT_TRUE(index.Insert("", 5));
  EXPECT_EQ(index.Get("hub_list_tasks"), 3u);
  EXPECT_EQ(index.Get("hub_list_tools"), 4u);
  EXPECT_EQ(index.Get(""), 5u);
  EXPECT_EQ(index.Get("hub_list_task"), NameIndex::kAbsent);
  EXPECT_EQ(index.Get("hub_list_tasks "), NameIndex::kAbsent);
  EXPECT_FALSE(index.Contains("jira_action_00"));
  EXPECT_EQ(index.size(), 3u);
}

TEST(NameIndex, KeepsTheFirstValueOfARepeatedName) {
  NameIndex index(2);
  EXPECT_TRUE(index.Insert("box", 1));
  EXPECT_FALSE(index.Insert(std::string("box"), 2));
  EXPECT_EQ(index.Get("box"), 1u);
  EXPECT_EQ(index.size(), 1u);
}

TEST(NameIndex, GrowsPastItsExpectedSize) {
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) names.push_back("app_action_" + std::to_string(i));
  NameIndex index(4);
  for (std::size_t i = 0; i < names.size(); ++i) {
    ASSERT_TRUE(index.Insert(names[i], static_cast<std::uint32_t>(i)));
  }
  for (std::size_t i = 0; i < names.size(); ++i) ASSERT_EQ(index.Get(names[i]), i);
  EXPECT_FALSE(index.Contains("app_action_3000"));
  EXPECT_FALSE(index.Contains("app_action_"));
}

TEST(NameIndex, HashUsesEveryByte) {
  // Names that differ in one byte anywhere, or only in length, hash apart.
  const std::string base = "jira_action_00_and_more";
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::string other = base;
    other[i] ^= 1;
    EXPECT_NE(NameIndex::Hash(base), NameIndex::Hash(other)) << i;
  }
  EXPECT_NE(NameIndex::Hash(std::string_view("ab\0", 3)), NameIndex::Hash("ab"));
}

}  // namespace
}  // namespace ensemble::core::playbooks
