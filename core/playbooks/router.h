// Playbook routing (spec 000 §3, "Playbook routing"): which playbooks a
// message preloads as <guide> blocks, and which tool schemas the model is
// offered for the turn.
//
// Scoring. Each playbook's `match` terms are matched against the message as
// whole words, case-insensitively (core/playbooks/message_words.h: "to-do"
// and "to do" are the same two words). A playbook's match score is its best
// term: kPhraseScore (3) for a term of two or more words ("meeting notes"),
// kWordScore (2) for a single word ("task"); terms are not summed, so a
// playbook with many synonyms does not outrank a precise phrase. A mention
// whose kind is in the playbook's `mentions` adds kMentionScore (2), once.
// A playbook with a positive score is a candidate; the open path (prefix of a
// `paths` entry, on '/' boundaries) adds kPathBonus (1) to a candidate only,
// and only to break ties: candidates rank by score, then path bonus, then
// name. A path alone loads nothing. The best kMaxGuides (2) are preloaded.
//
// Extras, in this order:
//  - on a custom board (the surface's customBoard filter), if `tasks` is a
//    guide then `boards` is one too: it takes the other slot (the board's
//    card is what "move this to Done" means), so there are still at most two;
//  - if the message names an app connected in the space (app_names.h), or is
//    a meeting-notes request (the `meetings` playbook matched by its words and
//    the message says notes, minutes, transcript, recap, summary or
//    recording) while a meeting-notes app is connected, `apps` is added as a
//    third guide (unless already one).
// A playbook whose `module` is not enabled, or whose `requires` names a tool
// the build lacks, is never routed (nor loaded by hub_how_to).
//
// Tools. A simple todo request (IsSimpleTodo below) gets the first line of
// the tasks playbook (starting "Simple todo:") instead of any guide, and
// exactly kSimpleTodoTools (those allowed).
// Otherwise: kCoreTools, then each guide's tools in guide order, then each
// playbook hub_how_to loaded earlier in the loop (RouteRequest::loaded), in
// that order. A playbook with `appTools: true` adds, after its own tools,
// every allowed app tool (a name starting "apps_" or listed in
// RouteRequest::app_tools), in allowed-list order. With toolsets off
// (ENSEMBLE_ASSISTANT_TOOLSETS=off, read by the caller) routing of tools is
// off: every allowed tool is offered, kCoreTools first and then the rest
// sorted by name; guides are still computed, and there is no simple todo.
// Whatever the path: nothing outside RouteRequest::allowed_tools is offered,
// names are unique, and at most kMaxToolSchemas (128) are offered, cutting
// from the end (so core tools are never the ones dropped).
//
// Thread-safety: a Router is immutable after construction and may be shared
// between threads; copies share the compiled tables.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_ROUTER_H_
#define ENSEMBLE_CORE_PLAYBOOKS_ROUTER_H_

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/playbooks/app_names.h"
#include "core/playbooks/playbook_set.h"

namespace ensemble::core::playbooks {

inline constexpr int kWordScore = 2;
inline constexpr int kPhraseScore = 3;
inline constexpr int kMentionScore = 2;
inline constexpr int kPathBonus = 1;
// Playbooks preloaded by score (the custom-board and app extras aside).
inline constexpr std::size_t kMaxGuides = 2;
// Tool schemas in one model request, whatever routing or toolsets say.
inline constexpr std::size_t kMaxToolSchemas = 128;

// The ten CORE_TOOLS every routed turn shows.
inline constexpr std::array<std::string_view, 10> kCoreTools = {
    "hub_how_to",       "hub_read_skill", "hub_search_work", "hub_item_context",
    "hub_read_surface", "hub_list_tasks", "hub_create_tasks", "hub_list_due",
    "hub_web_search",   "hub_read_web_page",
};

// The five tools of a simple todo request, in the order offered.
inline constexpr std::array<std::string_view, 5> kSimpleTodoTools = {
    "hub_how_to", "hub_create_tasks", "hub_list_tasks", "hub_list_people", "hub_list_projects",
};

// The playbooks the routing rules name.
inline constexpr std::string_view kTasksPlaybook = "tasks";
inline constexpr std::string_view kBoardsPlaybook = "boards";
inline constexpr std::string_view kAppsPlaybook = "apps";
inline constexpr std::string_view kMeetingsPlaybook = "meetings";
inline constexpr std::string_view kMapPlaybook = "map";
// The tasks playbook's body starts with this one-line recipe.
inline constexpr std::string_view kSimpleTodoPrefix = "Simple todo:";
// Longer messages are never simple todo requests.
inline constexpr std::size_t kMaxSimpleTodoChars = 200;

struct RouteRequest {
  std::string message;
  std::vector<std::string> mention_kinds;  // Kinds of the message's @ mentions.
  std::string open_path;                   // The page the person has open.
  bool custom_board = false;               // The surface has a customBoard filter.
  std::vector<ConnectedApp> connected_apps;
  std::vector<std::string> build_tools;    // Tools the build has (`requires`).
  std::vector<std::string> allowed_tools;  // What toolsFor allows this account.
  std::vector<std::string> app_tools;      // Allowed app tools not named apps_*.
  std::vector<std::string> loaded;         // Loaded by hub_how_to in this loop.
  bool toolsets_off = false;               // ENSEMBLE_ASSISTANT_TOOLSETS=off.
  std::vector<std::string> enabled_modules;
};

// A RouteRequest whose text is borrowed: views into a parsed request, or into
// lists the caller built once, so routing copies no names. Everything viewed
// must outlive the Route call and the RouteResultView it returns.
struct RouteRequestView {
  std::string_view message;
  std::span<const std::string_view> mention_kinds;
  std::string_view open_path;
  bool custom_board = false;
  std::span<const ConnectedAppView> connected_apps;
  std::span<const std::string_view> build_tools;
  std::span<const std::string_view> allowed_tools;
  std::span<const std::string_view> app_tools;
  std::span<const std::string_view> loaded;
  bool toolsets_off = false;
  std::span<const std::string_view> enabled_modules;
};

// How one playbook scored, for tests and the CLI.
struct PlaybookScore {
  std::string name;
  int score = 0;       // Match plus mention score.
  int path_bonus = 0;  // kPathBonus when a candidate's path is open.
};

struct RouteResult {
  std::vector<std::string> guides;  // Preloaded as <guide> blocks, in order;
                                    // empty for a simple todo.
  std::vector<std::string> tools;   // Offered tool names, in order.
  bool simple_todo = false;
  std::string recipe;               // The one-line recipe when simple_todo.
  std::vector<PlaybookScore> scores;  // Candidates only, in rank order.
};

// RouteResult with borrowed names: views into the Router's tables and into
// the request's views.
struct RouteResultView {
  struct Score {
    std::string_view name;
    int score = 0;
    int path_bonus = 0;
  };
  std::vector<std::string_view> guides;
  std::vector<std::string_view> tools;
  bool simple_todo = false;
  std::string_view recipe;
  std::vector<Score> scores;
};

// The routing tables compiled once from a PlaybookSet (lowercased match
// terms indexed by first word), so routing one message is cheap.
class Router {
 public:
  explicit Router(PlaybookSet set);

  RouteResult Route(const RouteRequest& request) const;
  // The same routing without copying names (Route above is this, copied out).
  RouteResultView Route(const RouteRequestView& request) const;

  // True when `request` is a simple todo request. Deliberately narrow (a
  // false "yes" hides every other tool): not toolsets off, nothing loaded by
  // hub_how_to yet, not on a custom board; one line of at most
  // kMaxSimpleTodoChars with no '?'; after leading words such as "please",
  // "can you", the words start with add, create, make, new or put and a
  // task word (task(s), todo(s), or "to do" after a/my/the/new...) follows
  // with at most three words between ("add two new tasks: ..."), or they
  // start with task or todo followed by ':' or '-' ("Todo: call Ana"); the
  // tasks playbook is routable, matched and carries the recipe; no other
  // playbook matched by its words; every mention is a person, people or
  // project; no connected app named; hub_create_tasks is allowed.
  bool IsSimpleTodo(const RouteRequest& request) const;

  // The text hub_how_to returns for `name`: the playbook's title as a
  // heading, its body and the bodies of its includes ("map" gives map.md's
  // body alone). NOT_FOUND, listing the routable names, for an unknown or
  // hidden playbook. The caller adds `name` to RouteRequest::loaded and
  // routes again, so its tools stay offered for the rest of the loop
  // (HowTo below does both).
  Result<std::string> PlaybookText(std::string_view name, const RouteRequest& request) const;

  const PlaybookSet& playbooks() const;
  // KnownToolNames(playbooks()), computed once.
  const std::vector<std::string>& known_tools() const;

 private:
  struct Tables;
  std::shared_ptr<const Tables> tables_;
};

// hub_how_to: the playbook's text and the route with it loaded. Appends
// `name` to request->loaded (once) when found.
struct HowToResult {
  std::string text;
  RouteResult route;
};
Result<HowToResult> HowTo(const Router& router, std::string_view name, RouteRequest* request);

// One-off routing; build a Router to route many messages.
RouteResult RoutePlaybooks(const PlaybookSet& set, const RouteRequest& request);

// Every tool name the playbooks name (tools and requires) plus kCoreTools,
// sorted: the default tool list when a caller has no registry.
std::vector<std::string> KnownToolNames(const PlaybookSet& set);

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_ROUTER_H_
