// Tests of core/playbooks/playbook.cc and playbook_set.cc: the forms the
// playbook files use, and an INVALID_ARGUMENT naming line and field for every
// kind of mistake.

#include "core/playbooks/playbook.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/playbooks/playbook_set.h"

namespace ensemble::core::playbooks {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kMinimal[] =
    "---\nname: tasks\ntitle: Tasks\nwhen: Work with tasks\ntools: [hub_list_tasks]\n---\nRecipe.\n";

// A minimal valid file with `extra` front-matter lines added before the fence.
std::string With(const std::string& extra) {
  return "---\nname: tasks\ntitle: Tasks\nwhen: Work with tasks\ntools: [hub_list_tasks]\n" +
         extra + "---\nRecipe.\n";
}

// Expects INVALID_ARGUMENT whose message contains every fragment.
void ExpectInvalid(const std::string& text, const std::vector<std::string>& fragments) {
  auto pb = ParsePlaybook(text, "x.md");
  ASSERT_FALSE(pb.ok()) << text;
  EXPECT_EQ(pb.status().code(), "INVALID_ARGUMENT");
  EXPECT_THAT(pb.status().message(), HasSubstr("x.md line "));
  for (const std::string& f : fragments) {
    EXPECT_THAT(pb.status().message(), HasSubstr(f)) << text;
  }
}

TEST(PlaybookParser, ReadsEveryField) {
  auto pb = ParsePlaybook(
      "---\n"
      "# a comment\n"
      "name: web-research\n"
      "title: \"Web: research\"\n"
      "when: 'Look things up, it''s quick'\n"
      "tools: [hub_web_search, \"hub_read_web_page\"]\n"
      "match:\n"
      "  - search the web\n"
      "  - \"look, up\"\n"
      "  - 'latest'\n"
      "paths: /web, /search\n"
      "mentions: [page]\n"
      "appTools: true\n"
      "module: workspace\n"
      "requires: [hub_web_search]\n"
      "include: [block-diagrams]\n"
      "---\n"
      "\n"
      "  Indented first line.\n"
      "Second.\n\n\n");
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_EQ(pb->name, "web-research");
  EXPECT_EQ(pb->title, "Web: research");
  EXPECT_EQ(pb->when, "Look things up, it's quick");
  EXPECT_THAT(pb->tools, ElementsAre("hub_web_search", "hub_read_web_page"));
  EXPECT_THAT(pb->match, ElementsAre("search the web", "look, up", "latest"));
  EXPECT_THAT(pb->paths, ElementsAre("/web", "/search"));
  EXPECT_THAT(pb->mentions, ElementsAre("page"));
  EXPECT_TRUE(pb->app_tools);
  EXPECT_EQ(pb->module, "workspace");
  EXPECT_THAT(pb->requires_tools, ElementsAre("hub_web_search"));
  EXPECT_THAT(pb->include, ElementsAre("block-diagrams"));
  EXPECT_EQ(pb->body, "  Indented first line.\nSecond.");
}

TEST(PlaybookParser, OptionalFieldsDefaultEmpty) {
  auto pb = ParsePlaybook(kMinimal);
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_THAT(pb->match, IsEmpty());
  EXPECT_THAT(pb->paths, IsEmpty());
  EXPECT_THAT(pb->mentions, IsEmpty());
  EXPECT_THAT(pb->requires_tools, IsEmpty());
  EXPECT_THAT(pb->include, IsEmpty());
  EXPECT_FALSE(pb->app_tools);
  EXPECT_EQ(pb->module, "");
  EXPECT_EQ(pb->body, "Recipe.");
}

TEST(PlaybookParser, AcceptsCrlfBomAndEmptyBody) {
  auto pb = ParsePlaybook(
      "\xEF\xBB\xBF---\r\nname: a\r\ntitle: A\r\nwhen: w\r\ntools: hub_x, hub_y\r\n---\r\n");
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_EQ(pb->name, "a");
  EXPECT_THAT(pb->tools, ElementsAre("hub_x", "hub_y"));
  EXPECT_EQ(pb->body, "");
  auto no_newline = ParsePlaybook("---\nname: a\ntitle: A\nwhen: w\ntools: [hub_x]\n---");
  ASSERT_TRUE(no_newline.ok()) << no_newline.status().ToString();
  EXPECT_EQ(no_newline->body, "");
}

TEST(PlaybookParser, AppToolsFalse) {
  auto pb = ParsePlaybook(With("appTools: false\n"));
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_FALSE(pb->app_tools);
}

TEST(PlaybookParser, QuotedStringEscapes) {
  auto pb = ParsePlaybook(With("match: [\"say \\\"hi\\\"\", \"a\\\\b\"]\n"));
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_THAT(pb->match, ElementsAre("say \"hi\"", "a\\b"));
}

TEST(PlaybookParser, RefusesMissingFrontMatter) {
  ExpectInvalid("name: tasks\n", {"line 1", "must start with a '---'"});
  ExpectInvalid("", {"line 1", "'---'"});
  ExpectInvalid("---\nname: tasks\ntitle: T\n", {"line 1", "no closing '---'"});
}

TEST(PlaybookParser, RefusesUnknownKeyNamingLineAndField) {
  ExpectInvalid(With("colour: red\n"), {"line 6", "field 'colour'", "unknown field"});
  // Keys are case-sensitive, as the spec spells them.
  ExpectInvalid(With("apptools: true\n"), {"line 6", "field 'apptools'", "unknown field"});
}

TEST(PlaybookParser, RefusesDuplicateKey) {
  ExpectInvalid(With("name: again\n"), {"line 6", "field 'name'", "given twice (first on line 2)"});
}

TEST(PlaybookParser, RefusesMissingRequiredFields) {
  ExpectInvalid("---\ntitle: T\nwhen: w\ntools: [hub_x]\n---\n", {"line 5", "field 'name'", "required"});
  ExpectInvalid("---\nname: a\ntitle: T\nwhen: w\n---\n", {"line 5", "field 'tools'", "required"});
  ExpectInvalid("---\nname: a\nwhen: w\ntools: [hub_x]\n---\n", {"field 'title'", "required"});
  ExpectInvalid("---\nname: a\ntitle: T\ntools: [hub_x]\n---\n", {"field 'when'", "required"});
}

TEST(PlaybookParser, RefusesBadNames) {
  for (const char* bad : {"Tasks", "web_research", "1tasks", "-x", "tasks!", "a b"}) {
    ExpectInvalid("---\nname: " + std::string(bad) + "\ntitle: T\nwhen: w\ntools: [hub_x]\n---\n",
                  {"line 2", "field 'name'"});
  }
  ExpectInvalid("---\nname: " + std::string(kMaxNameLength + 1, 'a') +
                    "\ntitle: T\nwhen: w\ntools: [hub_x]\n---\n",
                {"line 2", "field 'name'"});
  EXPECT_TRUE(IsValidPlaybookName(std::string(kMaxNameLength, 'a')));
  EXPECT_TRUE(IsValidPlaybookName("web-research2"));
  EXPECT_FALSE(IsValidPlaybookName(""));
}

TEST(PlaybookParser, RefusesBadToolNames) {
  ExpectInvalid("---\nname: a\ntitle: T\nwhen: w\ntools: [hub_x, Hub-Y]\n---\n",
                {"line 5", "field 'tools'", "'Hub-Y' is not a tool name"});
  ExpectInvalid(With("requires: [hub x]\n"), {"line 6", "field 'requires'", "not a tool name"});
  ExpectInvalid("---\nname: a\ntitle: T\nwhen: w\ntools: [hub_" +
                    std::string(kMaxToolNameLength, 'x') + "]\n---\n",
                {"field 'tools'", "not a tool name"});
}

TEST(PlaybookParser, RefusesBadListsAndValues) {
  ExpectInvalid(With("match: []\n"), {"line 6", "field 'match'", "empty list"});
  ExpectInvalid(With("match: [a, , b]\n"), {"line 6", "field 'match'", "empty item"});
  ExpectInvalid(With("match: [a, b,]\n"), {"line 6", "field 'match'", "empty item"});
  ExpectInvalid(With("match: [a, b\n"), {"line 6", "field 'match'", "no closing ']'"});
  ExpectInvalid(With("match: [a, a]\n"), {"line 6", "field 'match'", "listed twice"});
  ExpectInvalid(With("match: [\"a]\n"), {"line 6", "field 'match'", "no closing quote"});
  ExpectInvalid(With("match: [\"a\" b]\n"), {"line 6", "field 'match'", "after a quoted string"});
  ExpectInvalid(With("match: [\"a\\n\"]\n"), {"line 6", "field 'match'", "unknown escape"});
  ExpectInvalid(With("match:\n"), {"line 6", "field 'match'", "no items"});
  ExpectInvalid(With("match:\n  -\n"), {"line 7", "field 'match'", "empty item"});
  ExpectInvalid(With("module:\n"), {"line 6", "field 'module'", "has no value"});
  ExpectInvalid(With("module: [a]\n"), {"line 6", "field 'module'", "single value"});
  ExpectInvalid(With("module: Bad Module\n"), {"line 6", "field 'module'"});
  ExpectInvalid(With("appTools: yes\n"), {"line 6", "field 'appTools'", "true or false"});
  ExpectInvalid(With("appTools: \"true\"\n"), {"line 6", "field 'appTools'", "true or false"});
  ExpectInvalid(With("paths: [tasks]\n"), {"line 6", "field 'paths'", "must start with '/'"});
  ExpectInvalid(With("mentions: [Task]\n"), {"line 6", "field 'mentions'", "mention kind"});
  ExpectInvalid(With("include: [Other]\n"), {"line 6", "field 'include'", "not a playbook name"});
  ExpectInvalid(With("include: [tasks]\n"), {"line 6", "field 'include'", "itself"});
  ExpectInvalid(With("title2\n"), {"line 6", "expected 'key: value'"});
  ExpectInvalid(With("- stray\n"), {"line 6", "'- item' line must follow"});
  ExpectInvalid(With("  indented: x\n"), {"line 6", "indentation"});
}

TEST(PlaybookParser, BlockListEndsAtNextKey) {
  auto pb = ParsePlaybook(With("match:\n  - a\n\n  - b\nmodule: m\n"));
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_THAT(pb->match, ElementsAre("a", "b"));
  ExpectInvalid(With("match:\n  - a\nmodule: m\n  - b\n"), {"line 9", "'- item' line must follow"});
}

TEST(PlaybookParser, EnforcesSizeBounds) {
  ExpectInvalid(std::string(kMaxPlaybookBytes + 1, 'x'), {"line 1", "bytes"});
  std::string many = "match: [";
  for (std::size_t i = 0; i <= kMaxListItems; ++i) many += (i ? ", w" : "w") + std::to_string(i);
  ExpectInvalid(With(many + "]\n"), {"line 6", "field 'match'", "more than 64 items"});
  ExpectInvalid(With("module: " + std::string(kMaxValueLength + 1, 'a') + "\n"),
                {"line 6", "field 'module'", "longer than"});
  std::string comments;
  for (std::size_t i = 0; i < kMaxFrontMatterLines; ++i) comments += "# c\n";
  ExpectInvalid(With(comments), {"front matter is longer than"});
}

TEST(PlaybookParser, MessageWithoutSourceSaysPlaybook) {
  auto pb = ParsePlaybook("oops");
  ASSERT_FALSE(pb.ok());
  EXPECT_THAT(pb.status().message(), HasSubstr("playbook line 1:"));
}

PlaybookSource Source(const std::string& name, const std::string& extra = "") {
  return {name + ".md", "---\nname: " + name + "\ntitle: T\nwhen: w\ntools: [hub_x]\n" + extra +
                            "---\nBody of " + name + ".\n"};
}

TEST(PlaybookSet, FindsByNameAndSorts) {
  auto set = PlaybookSet::Build({Source("tasks"), Source("boards", "include: [tasks]\n"),
                                 Source("map")});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->size(), 3u);
  EXPECT_EQ(set->all()[0].name, "boards");
  EXPECT_EQ(set->all()[2].name, "tasks");
  ASSERT_NE(set->Find("map"), nullptr);
  EXPECT_EQ(set->Find("map")->body, "Body of map.");
  EXPECT_EQ(set->Find("nope"), nullptr);
  EXPECT_EQ(set->Find(""), nullptr);
  EXPECT_EQ(PlaybookSet().Find("tasks"), nullptr);
}

TEST(PlaybookSet, RefusesDuplicateNames) {
  PlaybookSource copy = Source("tasks");
  copy.file_name = "tasks-copy.md";
  auto set = PlaybookSet::Build({Source("tasks"), copy});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), "INVALID_ARGUMENT");
  EXPECT_THAT(set.status().message(), HasSubstr("tasks-copy.md"));
  EXPECT_THAT(set.status().message(), HasSubstr("already used by tasks.md"));
}

TEST(PlaybookSet, RefusesUnknownInclude) {
  auto set = PlaybookSet::Build({Source("tasks", "include: [block-diagrams]\n")});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), "INVALID_ARGUMENT");
  EXPECT_THAT(set.status().message(), HasSubstr("tasks.md"));
  EXPECT_THAT(set.status().message(), HasSubstr("no playbook called 'block-diagrams'"));
}

TEST(PlaybookSet, PassesOnAFileError) {
  auto set = PlaybookSet::Build({Source("tasks"), {"bad.md", "no front matter"}});
  ASSERT_FALSE(set.ok());
  EXPECT_THAT(set.status().message(), HasSubstr("bad.md line 1"));
}

TEST(PlaybookSet, RefusesTooManyPlaybooks) {
  std::vector<PlaybookSource> sources;
  for (std::size_t i = 0; i <= kMaxPlaybooks; ++i) sources.push_back(Source("p" + std::to_string(i)));
  auto set = PlaybookSet::Build(sources);
  ASSERT_FALSE(set.ok());
  EXPECT_THAT(set.status().message(), HasSubstr("at most 64"));
}

}  // namespace
}  // namespace ensemble::core::playbooks
