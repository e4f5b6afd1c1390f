// Playbook routing (core/playbooks/router.h), one table row per rule of spec
// 000 §3 "Playbook routing", over a small synthetic playbook set so each row
// shows one rule; then the shared vectors (tests/vectors/route/route.json)
// over the real, embedded playbooks, which the wasm build runs too.

#include "core/playbooks/router.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/playbooks/embedded.h"
#include "core/playbooks/route_json.h"

namespace ensemble::core::playbooks {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

std::vector<PlaybookSource> SyntheticSources() {
  return {
      {"tasks.md",
       "---\nname: tasks\ntitle: Tasks\nwhen: tasks\n"
       "tools: [hub_list_tasks, hub_create_tasks, hub_update_task, hub_list_people, "
       "hub_list_projects]\nmatch: [task, tasks, todo, \"to do\"]\npaths: [/tasks]\n"
       "mentions: [task]\n---\nSimple todo: make it with hub_create_tasks.\n\nMore."},
      {"boards.md",
       "---\nname: boards\ntitle: Boards\nwhen: boards\ntools: [hub_list_boards, "
       "hub_move_to_board]\nmatch: [board, column]\npaths: [/board]\nmentions: [board]\n---\nB"},
      {"meetings.md",
       "---\nname: meetings\ntitle: Meetings\nwhen: m\ntools: [hub_list_meetings]\n"
       "match: [meeting, meeting notes, transcript]\nmentions: [meeting]\n---\nM"},
      {"calendar.md",
       "---\nname: calendar\ntitle: Calendar\nwhen: c\ntools: [hub_list_events]\n"
       "match: [calendar, schedule]\npaths: [/calendar]\n---\nCalendar recipe."},
      {"pages.md",
       "---\nname: pages\ntitle: Pages\nwhen: p\ntools: [hub_list_pages]\n"
       "match: [page, note, notes, write up]\npaths: [/pages]\n---\nP"},
      {"people.md",
       "---\nname: people\ntitle: People\nwhen: p\ntools: [hub_list_people]\n"
       "match: [person, colleague]\nmentions: [person]\n---\nP"},
      {"apps.md",
       "---\nname: apps\ntitle: Apps\nwhen: a\ntools: [hub_list_connections, apps_search]\n"
       "match: [app, connected apps]\nappTools: true\n---\nA"},
      {"code.md",
       "---\nname: code\ntitle: Code\nwhen: c\ntools: [ensemble_run]\nmatch: [repo]\n"
       "module: code\n---\nC"},
      {"deploy.md",
       "---\nname: deploy\ntitle: Deploy\nwhen: d\ntools: [hub_deploy]\nmatch: [deploy]\n"
       "requires: [hub_deploy]\n---\nD"},
      {"map.md", "---\nname: map\ntitle: Map\nwhen: m\ntools: [hub_how_to]\n---\nMap body"},
  };
}

const Router& Synthetic() {
  static const Router* router = [] {
    auto set = PlaybookSet::Build(SyntheticSources());
    EXPECT_TRUE(set.ok()) << set.status().ToString();
    return new Router(std::move(set).value());
  }();
  return *router;
}

RouteRequest Request(std::string message) {
  RouteRequest r;
  r.message = std::move(message);
  r.allowed_tools = KnownToolNames(Synthetic().playbooks());
  r.build_tools = r.allowed_tools;
  return r;
}

std::vector<std::string> Core() { return {kCoreTools.begin(), kCoreTools.end()}; }

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

int ScoreOf(const RouteResult& r, const std::string& name) {
  for (const PlaybookScore& s : r.scores) {
    if (s.name == name) return s.score;
  }
  return 0;
}

const ConnectedApp kJira{"Jira & Confluence", "jira", "Atlassian", false};
const ConnectedApp kBox{"Box", "box", "Box", false};
const ConnectedApp kGranola{"Granola", "granola", "Granola", true};

struct Row {
  std::string rule;
  RouteRequest request;
  std::vector<std::string> guides;
  std::function<void(const RouteResult&)> more = nullptr;
};

RouteRequest With(RouteRequest r, const std::function<void(RouteRequest&)>& edit) {
  edit(r);
  return r;
}

std::vector<Row> Rows() {
  return {
      {"a single match word scores 2", Request("open my calendar"), {"calendar"},
       [](const RouteResult& r) { EXPECT_EQ(ScoreOf(r, "calendar"), 2); }},
      {"a match phrase of two or more words scores 3", Request("write up the plan"), {"pages"},
       [](const RouteResult& r) { EXPECT_EQ(ScoreOf(r, "pages"), 3); }},
      {"a phrase outranks a word", Request("schedule the meeting notes"), {"meetings", "calendar"},
       [](const RouteResult& r) { EXPECT_EQ(ScoreOf(r, "meetings"), 3); }},
      {"whole words only, any case", Request("MULTITASKING on the Calendar"), {"calendar"}},
      {"a mention kind scores 2",
       With(Request("look at this"), [](RouteRequest& r) { r.mention_kinds = {"board"}; }),
       {"boards"},
       [](const RouteResult& r) { EXPECT_EQ(ScoreOf(r, "boards"), 2); }},
      {"ties go by name without a path", Request("schedule a page about the board"),
       {"boards", "calendar"}},
      {"the open path breaks a tie",
       With(Request("schedule a page about the board"),
            [](RouteRequest& r) { r.open_path = "/pages/01J0000000"; }),
       {"pages", "boards"}},
      {"the open path does not beat a higher score",
       With(Request("write up the schedule"), [](RouteRequest& r) { r.open_path = "/calendar"; }),
       {"pages", "calendar"}},
      {"a path alone loads nothing",
       With(Request("what is this?"), [](RouteRequest& r) { r.open_path = "/calendar"; }),
       {},
       [](const RouteResult& r) { EXPECT_EQ(r.tools, Core()); }},
      {"at most two are preloaded", Request("schedule a page for my colleague on the board"),
       {"boards", "calendar"},
       [](const RouteResult& r) { EXPECT_EQ(r.scores.size(), 4u); }},
      {"on a custom board tasks brings boards",
       With(Request("move this task to Done"), [](RouteRequest& r) { r.custom_board = true; }),
       {"tasks", "boards"}},
      {"not on a custom board, tasks alone", Request("move this task to Done"), {"tasks"}},
      {"on a custom board boards takes the other slot",
       With(Request("move the page task"), [](RouteRequest& r) { r.custom_board = true; }),
       {"tasks", "boards"}},
      {"naming a connected app loads apps as a third",
       With(Request("schedule the page from jira"),
            [](RouteRequest& r) { r.connected_apps = {kJira}; }),
       {"calendar", "pages", "apps"}},
      {"a part of a combined app name counts",
       With(Request("find the confluence space"),
            [](RouteRequest& r) { r.connected_apps = {kJira}; }),
       {"apps"}},
      {"the vendor names the app",
       With(Request("anything new at atlassian"),
            [](RouteRequest& r) { r.connected_apps = {kJira}; }),
       {"apps"}},
      {"an app not connected loads nothing", Request("find the confluence space"), {}},
      {"an everyday-word name in lowercase does not count",
       With(Request("put the notes in a box"), [](RouteRequest& r) { r.connected_apps = {kBox}; }),
       {"pages"}},
      {"an everyday-word name capitalised counts",
       With(Request("put the notes in Box"), [](RouteRequest& r) { r.connected_apps = {kBox}; }),
       {"pages", "apps"}},
      {"a meeting-notes request with a meeting-notes app loads apps",
       With(Request("get the notes from the meeting"),
            [](RouteRequest& r) { r.connected_apps = {kGranola}; }),
       {"meetings", "pages", "apps"}},
      {"a meeting request that is not about notes does not",
       With(Request("schedule a meeting with Ana"),
            [](RouteRequest& r) { r.connected_apps = {kGranola}; }),
       {"calendar", "meetings"}},
      {"a meeting-notes request without a meeting-notes app does not",
       With(Request("get the notes from the meeting"),
            [](RouteRequest& r) { r.connected_apps = {kJira}; }),
       {"meetings", "pages"}},
      {"a simple todo gets the recipe and five tools", Request("Add a task to buy milk"), {},
       [](const RouteResult& r) {
         EXPECT_TRUE(r.simple_todo);
         EXPECT_EQ(r.recipe, "Simple todo: make it with hub_create_tasks.");
         EXPECT_THAT(r.tools, ElementsAreArray(kSimpleTodoTools));
       }},
      {"a simple todo may mention a person",
       With(Request("please create two new tasks for Mira: call Ana, book room"),
            [](RouteRequest& r) { r.mention_kinds = {"person"}; }),
       {},
       [](const RouteResult& r) { EXPECT_TRUE(r.simple_todo); }},
      {"todo: at the start is a simple todo", Request("Todo: renew the lease"), {},
       [](const RouteResult& r) { EXPECT_TRUE(r.simple_todo); }},
      {"a question is not a simple todo", Request("tasks due today?"), {"tasks"},
       [](const RouteResult& r) { EXPECT_FALSE(r.simple_todo); }},
      {"a todo naming another area gets core and playbook tools",
       Request("add a task to the board"), {"boards", "tasks"},
       [](const RouteResult& r) {
         EXPECT_FALSE(r.simple_todo);
         EXPECT_EQ(r.tools, Concat(Core(), {"hub_list_boards", "hub_move_to_board",
                                            "hub_update_task", "hub_list_people",
                                            "hub_list_projects"}));
       }},
      {"hub_how_to's playbooks add their tools after the guides'",
       With(Request("open my calendar"),
            [](RouteRequest& r) { r.loaded = {"pages", "code", "nope"}; }),
       {"calendar"},
       [](const RouteResult& r) {
         EXPECT_EQ(r.tools, Concat(Core(), {"hub_list_events", "hub_list_pages"}));
       }},
      {"requires hides a playbook the build cannot run",
       With(Request("deploy it"), [](RouteRequest& r) {
         r.build_tools.erase(std::find(r.build_tools.begin(), r.build_tools.end(), "hub_deploy"));
       }),
       {}},
      {"requires is met", Request("deploy it"), {"deploy"}},
      {"module hides a playbook", Request("open the repo"), {}},
      {"an enabled module shows it",
       With(Request("open the repo"), [](RouteRequest& r) { r.enabled_modules = {"code"}; }),
       {"code"}},
      {"nothing outside the allowed tools",
       With(Request("add a task to the board"),
            [](RouteRequest& r) {
              r.allowed_tools = {"hub_how_to", "hub_list_boards", "hub_update_task", "other"};
            }),
       {"boards", "tasks"},
       [](const RouteResult& r) {
         EXPECT_THAT(r.tools, ElementsAre("hub_how_to", "hub_list_boards", "hub_update_task"));
       }},
      {"appTools adds every allowed app tool",
       With(Request("which connected apps do I have"),
            [](RouteRequest& r) {
              r.allowed_tools.insert(r.allowed_tools.end(),
                                     {"apps_read", "github_list_issues", "hub_secret"});
              r.app_tools = {"github_list_issues"};
            }),
       {"apps"},
       [](const RouteResult& r) {
         EXPECT_EQ(r.tools, Concat(Core(), {"hub_list_connections", "apps_search", "apps_read",
                                            "github_list_issues"}));
       }},
  };
}

TEST(Router, FollowsEveryRoutingRule) {
  for (const Row& row : Rows()) {
    SCOPED_TRACE(row.rule);
    RouteResult r = Synthetic().Route(row.request);
    EXPECT_EQ(r.guides, row.guides);
    if (row.more) row.more(r);
    // Always: allowed only, unique, within the cap.
    std::vector<std::string> sorted = r.tools;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
    EXPECT_LE(r.tools.size(), kMaxToolSchemas);
    for (const std::string& tool : r.tools) {
      EXPECT_NE(std::find(row.request.allowed_tools.begin(), row.request.allowed_tools.end(), tool),
                row.request.allowed_tools.end())
          << tool;
    }
  }
}

TEST(Router, CapsRoutedToolsAt128KeepingCoreToolsFirst) {
  RouteRequest r = Request("which connected apps do I have");
  for (int i = 0; i < 200; ++i) r.allowed_tools.push_back("apps_tool_" + std::to_string(1000 + i));
  RouteResult out = Synthetic().Route(r);
  ASSERT_EQ(out.tools.size(), kMaxToolSchemas);
  EXPECT_EQ(std::vector<std::string>(out.tools.begin(), out.tools.begin() + 10), Core());
}

TEST(Router, ToolsetsOffOffersEveryAllowedToolCappedAndFiltered) {
  RouteRequest r = Request("Add a task to buy milk");
  r.toolsets_off = true;
  RouteResult few = Synthetic().Route(r);
  EXPECT_FALSE(few.simple_todo);
  std::vector<std::string> rest;
  for (const std::string& t : r.allowed_tools) {
    if (std::find(kCoreTools.begin(), kCoreTools.end(), t) == kCoreTools.end()) rest.push_back(t);
  }
  EXPECT_EQ(few.tools, Concat(Core(), rest));  // KnownToolNames is sorted.

  r.allowed_tools.erase(
      std::find(r.allowed_tools.begin(), r.allowed_tools.end(), "hub_web_search"));
  for (int i = 0; i < 300; ++i) r.allowed_tools.push_back("hub_extra_" + std::to_string(i));
  RouteResult many = Synthetic().Route(r);
  ASSERT_EQ(many.tools.size(), kMaxToolSchemas);
  EXPECT_EQ(many.tools[0], "hub_how_to");
  EXPECT_EQ(std::find(many.tools.begin(), many.tools.end(), "hub_web_search"), many.tools.end());
}

TEST(Router, HowToReturnsTheTextAndAddsItsToolsForTheRestOfTheLoop) {
  RouteRequest r = Request("open my calendar");
  auto how = HowTo(Synthetic(), "pages", &r);
  ASSERT_TRUE(how.ok()) << how.status().ToString();
  EXPECT_THAT(how->text, StartsWith("# Pages\n\nP"));
  EXPECT_THAT(r.loaded, ElementsAre("pages"));
  EXPECT_EQ(how->route.tools, Concat(Core(), {"hub_list_events", "hub_list_pages"}));
  // Loading it twice keeps one entry.
  ASSERT_TRUE(HowTo(Synthetic(), "pages", &r).ok());
  EXPECT_THAT(r.loaded, ElementsAre("pages"));
  // A later message of the same loop still gets them.
  r.message = "hello";
  EXPECT_EQ(Synthetic().Route(r).tools, Concat(Core(), {"hub_list_pages"}));

  auto map = Synthetic().PlaybookText("map", r);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(*map, "Map body");
  auto hidden = HowTo(Synthetic(), "code", &r);
  EXPECT_EQ(hidden.status().code(), codes::kNotFound);
  EXPECT_THAT(hidden.status().message(), HasSubstr("calendar"));
  EXPECT_THAT(r.loaded, ElementsAre("pages"));
}

TEST(Router, RoutePlaybooksMatchesARouter) {
  auto set = PlaybookSet::Build(SyntheticSources());
  ASSERT_TRUE(set.ok());
  RouteRequest r = Request("schedule the meeting notes");
  EXPECT_EQ(RoutePlaybooks(*set, r).guides, Synthetic().Route(r).guides);
}

// --- The real playbooks, embedded, and the shared vectors. ---

std::filesystem::path SourceDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".");
}

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(EmbeddedPlaybooks, AreTheFilesByteForByte) {
  std::vector<PlaybookSource> embedded = EmbeddedPlaybooks();
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(SourceDir() / "playbooks")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && name != "README.md") files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(embedded.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(embedded[i].file_name, files[i]);
    EXPECT_EQ(embedded[i].text, ReadText(SourceDir() / "playbooks" / files[i])) << files[i];
  }
}

TEST(RouteJson, RejectsBadRequestsWithTheField) {
  auto set = PlaybookSet::Build(EmbeddedPlaybooks());
  ASSERT_TRUE(set.ok());
  const Router router(*set);
  auto code_of = [&](const char* text) {
    return RouteRequestFromJson(nlohmann::json::parse(text), router).status();
  };
  EXPECT_THAT(code_of(R"({})").message(), HasSubstr("message is required"));
  EXPECT_THAT(code_of(R"({"message": 1})").message(), HasSubstr("message must be a string"));
  EXPECT_THAT(code_of(R"({"message": "", "mesage": 1})").message(), HasSubstr("'mesage'"));
  EXPECT_THAT(code_of(R"({"message": "", "mentions": [{"id": "x"}]})").message(),
              HasSubstr("mentions[0].kind"));
  EXPECT_THAT(code_of(R"({"message": "", "allowedTools": [1]})").message(),
              HasSubstr("allowedTools[0]"));
  EXPECT_EQ(code_of(R"({"message": "", "apps": {}})").code(), codes::kInvalidArgument);
  auto ok = RouteRequestFromJson(
      nlohmann::json::parse(
          R"({"message": "m", "surface": {"path": "/board/1", "surface": {"filters": {"customBoard": "b1"}}}})"),
      router);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_TRUE(ok->custom_board);
  EXPECT_EQ(ok->open_path, "/board/1");
}

TEST(RouteJson, WritesStringsAsNlohmannDumpsThem) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii.push_back(static_cast<char>(c));
  for (const std::string& text :
       {std::string(), every_ascii, std::string("caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x98\x80")}) {
    std::string out;
    AppendJsonString(text, &out);
    EXPECT_EQ(out, nlohmann::json(text).dump());
  }
}

TEST(RouteJson, WritesTheAnswerAsTheTreeDumpsIt) {
  RouteResultView view;
  view.guides = {"tasks", "boards"};
  view.tools = {"hub_how_to", "odd \"name\"\n"};
  view.recipe = "Simple todo: \\ do it";
  view.simple_todo = true;
  RouteResult owned;
  owned.guides = {"tasks", "boards"};
  owned.tools = {"hub_how_to", "odd \"name\"\n"};
  owned.recipe = "Simple todo: \\ do it";
  owned.simple_todo = true;
  nlohmann::json tree = RouteResultToJson(owned);
  std::string out;
  AppendRouteResultJson(view, /*ok_member=*/false, &out);
  EXPECT_EQ(out, tree.dump());
  tree["ok"] = true;
  out.clear();
  AppendRouteResultJson(view, /*ok_member=*/true, &out);
  EXPECT_EQ(out, tree.dump());
}

}  // namespace
}  // namespace ensemble::core::playbooks
