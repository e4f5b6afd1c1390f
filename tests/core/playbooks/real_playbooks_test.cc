// Loads every real playbook in playbooks/ and checks the set the assistant
// will route to: each parses, names are unique, includes resolve, each offers
// tools with names of the spec's families, and the tasks playbook carries the
// simple-todo recipe with its five tools (spec 000 §3).

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/playbooks/playbook.h"
#include "core/playbooks/playbook_set.h"

namespace ensemble::core::playbooks {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

std::filesystem::path PlaybookDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".") / "playbooks";
}

std::vector<PlaybookSource> ReadAll() {
  std::vector<PlaybookSource> sources;
  for (const auto& entry : std::filesystem::directory_iterator(PlaybookDir())) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".md" || file == "README.md") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back({file, text.str()});
  }
  std::sort(sources.begin(), sources.end(),
            [](const PlaybookSource& a, const PlaybookSource& b) { return a.file_name < b.file_name; });
  return sources;
}

TEST(RealPlaybooks, EveryFileParsesAndFormsASet) {
  std::vector<PlaybookSource> sources = ReadAll();
  ASSERT_FALSE(sources.empty()) << PlaybookDir();
  for (const PlaybookSource& source : sources) {
    auto pb = ParsePlaybook(source.text, source.file_name);
    ASSERT_TRUE(pb.ok()) << pb.status().ToString();
    // The file is named after the playbook, so hub_how_to's name finds it.
    EXPECT_EQ(pb->name + ".md", source.file_name);
    EXPECT_FALSE(pb->tools.empty()) << source.file_name;
    EXPECT_FALSE(pb->body.empty()) << source.file_name << " has no recipe";
  }
  auto set = PlaybookSet::Build(sources);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->size(), sources.size());
}

TEST(RealPlaybooks, CoversEveryAreaTheSpecNames) {
  auto set = PlaybookSet::Build(ReadAll());
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  std::vector<std::string> names;
  for (const Playbook& pb : set->all()) names.push_back(pb.name);
  EXPECT_THAT(names, IsSupersetOf({"tasks", "boards", "projects", "pages", "meetings", "people",
                                   "reminders", "routines", "skills", "calendar", "files", "apps",
                                   "web-research", "settings", "map"}));
}

TEST(RealPlaybooks, ToolNamesAreOfTheSpecsFamilies) {
  // Hub tools, connected-app item tools and Ensemble Code's own tools.
  const std::regex tool_name("^(hub|apps|ensemble)_[a-z_]+$");
  auto set = PlaybookSet::Build(ReadAll());
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  for (const Playbook& pb : set->all()) {
    for (const auto* list : {&pb.tools, &pb.requires_tools}) {
      for (const std::string& tool : *list) {
        EXPECT_TRUE(std::regex_match(tool, tool_name)) << pb.name << ": " << tool;
      }
    }
  }
}

TEST(RealPlaybooks, EveryPlaybookButMapPreloadsSomehow) {
  auto set = PlaybookSet::Build(ReadAll());
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  for (const Playbook& pb : set->all()) {
    if (pb.name == "map") continue;  // Only hub_how_to loads the map.
    EXPECT_FALSE(pb.match.empty()) << pb.name << " has no match words";
  }
}

TEST(RealPlaybooks, MapNamesEveryOtherPlaybook) {
  auto set = PlaybookSet::Build(ReadAll());
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  const Playbook* map = set->Find("map");
  ASSERT_NE(map, nullptr);
  for (const Playbook& pb : set->all()) {
    if (pb.name == "map") continue;
    EXPECT_THAT(map->body, HasSubstr("- " + pb.name + ":")) << pb.name;
  }
}

TEST(RealPlaybooks, TasksHasTheSimpleTodoRecipeAndItsFiveTools) {
  auto set = PlaybookSet::Build(ReadAll());
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  const Playbook* tasks = set->Find("tasks");
  ASSERT_NE(tasks, nullptr);
  // The recipe is the body's first line; it names the tools of spec 000 §3
  // (hub_how_to is a core tool, so the tasks playbook need not list it).
  const std::string first_line = tasks->body.substr(0, tasks->body.find('\n'));
  EXPECT_THAT(first_line, HasSubstr("Simple todo:"));
  for (const char* tool : {"hub_create_tasks", "hub_list_tasks", "hub_list_people",
                           "hub_list_projects"}) {
    EXPECT_NE(std::find(tasks->tools.begin(), tasks->tools.end(), tool), tasks->tools.end())
        << tool;
  }
  for (const char* tool : {"hub_how_to", "hub_create_tasks", "hub_list_tasks", "hub_list_people",
                           "hub_list_projects"}) {
    EXPECT_THAT(first_line, HasSubstr(tool));
  }
}

}  // namespace
}  // namespace ensemble::core::playbooks
