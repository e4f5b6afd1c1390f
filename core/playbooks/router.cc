#include "core/playbooks/router.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "core/playbooks/message_words.h"
#include "core/playbooks/name_index.h"

namespace ensemble::core::playbooks {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

// Words that make a `meetings` match a request about meeting notes.
constexpr std::array<std::string_view, 8> kMeetingNotesWords = {
    "minutes", "note", "notes", "recap", "recording", "summary", "transcript", "transcripts",
};
// Leading words a simple todo request may start with before its verb.
constexpr std::array<std::string_view, 11> kPoliteWords = {
    "can", "could", "hey", "hi", "ok", "okay", "please", "pls", "quickly", "would", "you",
};
constexpr std::array<std::string_view, 5> kCreateVerbs = {"add", "create", "make", "new", "put"};
constexpr std::array<std::string_view, 4> kTodoWords = {"task", "tasks", "todo", "todos"};
// How many words may stand between the verb and the task word ("add two new
// tasks", "add to my todo list").
constexpr std::size_t kTodoWordWindow = 3;
// Mention kinds a simple todo may carry (the recipe resolves them).
constexpr std::array<std::string_view, 3> kSimpleTodoMentionKinds = {"people", "person", "project"};

template <std::size_t N>
bool In(const std::array<std::string_view, N>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

template <typename List>
bool Contains(const List& list, std::string_view s) {
  for (const auto& item : list) {
    if (std::string_view(item) == s) return true;
  }
  return false;
}

// True when `path` is `prefix` or below it ("/board" covers "/board/7" and
// "/board?x", not "/boards").
bool PathUnder(std::string_view path, std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix) return false;
  if (path.size() == prefix.size() || prefix.back() == '/') return true;
  const char next = path[prefix.size()];
  return next == '/' || next == '?' || next == '#';
}

// Words after which "to do" is a noun ("add a to-do", "my to do list").
constexpr std::array<std::string_view, 7> kToDoDeterminers = {"a",   "an",  "another", "my",
                                                              "new", "one", "the"};

// A task word at word i: task(s), todo(s), or "to do" after a determiner.
bool TodoWordAt(const MessageWords& words, std::size_t i) {
  const auto& w = words.words();
  if (i >= w.size()) return false;
  if (In(kTodoWords, w[i].text)) return true;
  return w[i].text == "to" && i + 1 < w.size() && w[i + 1].text == "do" && i > 0 &&
         In(kToDoDeterminers, w[i - 1].text);
}

// The words test of a simple todo request (see Router::IsSimpleTodo).
bool LooksLikeTodo(std::string_view message, const MessageWords& words) {
  if (message.size() > kMaxSimpleTodoChars ||
      message.find_first_of("\n?") != std::string_view::npos) {
    return false;
  }
  const auto& w = words.words();
  std::size_t i = 0;
  while (i < w.size() && In(kPoliteWords, w[i].text)) ++i;
  if (i >= w.size()) return false;
  if (In(kTodoWords, w[i].text)) {
    // "Todo: call Ana", "task - renew the lease"; not "tasks due today".
    const std::size_t after = w[i].offset + w[i].text.size();
    const std::size_t mark = message.find_first_not_of(' ', after);
    return mark != std::string_view::npos && (message[mark] == ':' || message[mark] == '-');
  }
  if (!In(kCreateVerbs, w[i].text)) return false;
  for (std::size_t k = 1; k <= kTodoWordWindow + 1; ++k) {
    if (TodoWordAt(words, i + k)) return true;
  }
  return false;
}

}  // namespace

struct Router::Tables {
  struct Term {
    std::vector<std::string> words;
    int score = 0;
    std::uint32_t playbook = 0;
  };

  PlaybookSet set;
  std::vector<Term> terms;
  // First word of a term -> its index in term_groups, the terms starting
  // with it. Keys view into terms.
  NameIndex terms_by_first_word;
  std::vector<std::vector<std::uint32_t>> term_groups;
  // Every tool name the routing can offer by itself, and its index.
  std::vector<std::string> tool_names;
  NameIndex tool_ids;
  std::vector<std::vector<std::uint32_t>> playbook_tools;  // By playbook index.
  std::vector<std::uint32_t> core_tools;
  std::vector<std::uint32_t> simple_todo_tools;
  std::uint32_t create_tasks_tool = kNone;
  std::uint32_t tasks = kNone, boards = kNone, apps = kNone, meetings = kNone;
  std::string recipe;  // The tasks playbook's first line, if a recipe.

  std::uint32_t PlaybookIndex(std::string_view name) const {
    const Playbook* pb = set.Find(name);
    return pb == nullptr ? kNone : static_cast<std::uint32_t>(pb - set.all().data());
  }

  std::uint32_t ToolId(std::string_view name) const {
    static_assert(NameIndex::kAbsent == kNone);
    return tool_ids.Get(name);
  }
};

namespace {

// Everything Route works out from one request before choosing tools.
struct Scoring {
  std::vector<char> visible;
  std::vector<int> match;             // Best match-term score, by playbook.
  std::vector<int> score;             // Match plus mention.
  std::vector<int> path;              // Path bonus of candidates.
  std::vector<std::uint32_t> ranked;  // Candidates, best first.
};

template <typename Request>
bool IsVisible(const Playbook& pb, const Request& request) {
  if (!pb.module.empty() && !Contains(request.enabled_modules, pb.module)) return false;
  for (const std::string& tool : pb.requires_tools) {
    if (!Contains(request.build_tools, tool)) return false;
  }
  return true;
}

// A set of borrowed names: one allocation, none per name.
class NameSet {
 public:
  explicit NameSet(std::size_t expected) : index_(expected) {}

  // False when `name` was already in the set.
  bool Insert(std::string_view name) { return index_.Insert(name, 0); }

  bool Contains(std::string_view name) const { return index_.Contains(name); }

 private:
  NameIndex index_;
};

// Collects offered tool names: allowed only, each once, at most
// kMaxToolSchemas. Tools the routing knows are tracked by id; the other
// allowed names (app tools) by their index in the allowed list.
class ToolCollector {
 public:
  ToolCollector(const std::vector<std::string>& tool_names, const NameIndex& tool_ids,
                std::span<const std::string_view> allowed_names, std::vector<std::string_view>* out)
      : tool_names_(tool_names),
        allowed_names_(allowed_names),
        allowed_(tool_names.size(), 0),
        emitted_(tool_names.size(), 0),
        known_id_(allowed_names.size(), kNone),
        out_(out) {
    out_->reserve(kMaxToolSchemas);
    for (std::size_t i = 0; i < allowed_names_.size(); ++i) {
      const std::uint32_t id = tool_ids.Get(allowed_names_[i]);
      if (id == NameIndex::kAbsent) continue;
      allowed_[id] = 1;
      known_id_[i] = id;
    }
  }

  bool Allowed(std::uint32_t id) const { return id != kNone && allowed_[id]; }

  void AddKnown(std::uint32_t id) {
    if (Full() || !Allowed(id) || emitted_[id]) return;
    emitted_[id] = 1;
    out_->push_back(tool_names_[id]);
  }

  // Adds allowed_tools[index].
  void AddAllowed(std::size_t index) {
    if (known_id_[index] != kNone) return AddKnown(known_id_[index]);
    if (Full()) return;
    if (skip_.empty()) MarkRepeatedNames();
    if (skip_[index]) return;
    skip_[index] = 1;
    out_->push_back(allowed_names_[index]);
  }

 private:
  bool Full() const { return out_->size() >= kMaxToolSchemas; }

  // A name the allowed list repeats is added from its first index only.
  // Only names the routing does not know are checked (known ones are
  // deduplicated by id): no sorting, no allocation per name.
  void MarkRepeatedNames() {
    skip_.assign(allowed_names_.size(), 0);
    NameSet seen(allowed_names_.size());
    for (std::size_t i = 0; i < allowed_names_.size(); ++i) {
      if (known_id_[i] == kNone && !seen.Insert(allowed_names_[i])) skip_[i] = 1;
    }
  }

  const std::vector<std::string>& tool_names_;
  std::span<const std::string_view> allowed_names_;
  std::vector<char> allowed_;            // By known id.
  std::vector<char> emitted_;            // By known id.
  std::vector<std::uint32_t> known_id_;  // By allowed index.
  std::vector<char> skip_;               // By allowed index; built lazily.
  std::vector<std::string_view>* out_;
};

// The turn's app tools: named apps_*, or listed in RouteRequest::app_tools
// (looked up in a set, so a long list of app tools stays linear).
class AppTools {
 public:
  explicit AppTools(std::span<const std::string_view> listed) : listed_(listed.size()) {
    for (std::string_view name : listed) listed_.Insert(name);
  }
  bool Contains(std::string_view name) const {
    return name.substr(0, 5) == "apps_" || listed_.Contains(name);
  }

 private:
  NameSet listed_;
};

// Views of a RouteRequest's strings, for the borrowed-text Route.
class RequestViews {
 public:
  explicit RequestViews(const RouteRequest& r)
      : mention_kinds_(Views(r.mention_kinds)),
        build_tools_(Views(r.build_tools)),
        allowed_tools_(Views(r.allowed_tools)),
        app_tools_(Views(r.app_tools)),
        loaded_(Views(r.loaded)),
        enabled_modules_(Views(r.enabled_modules)) {
    apps_.reserve(r.connected_apps.size());
    for (const ConnectedApp& app : r.connected_apps) {
      apps_.push_back({app.catalog_name, app.id, app.vendor, app.meeting_notes});
    }
    view_.message = r.message;
    view_.mention_kinds = mention_kinds_;
    view_.open_path = r.open_path;
    view_.custom_board = r.custom_board;
    view_.connected_apps = apps_;
    view_.build_tools = build_tools_;
    view_.allowed_tools = allowed_tools_;
    view_.app_tools = app_tools_;
    view_.loaded = loaded_;
    view_.toolsets_off = r.toolsets_off;
    view_.enabled_modules = enabled_modules_;
  }
  RequestViews(const RequestViews&) = delete;
  RequestViews& operator=(const RequestViews&) = delete;

  const RouteRequestView& view() const { return view_; }

 private:
  static std::vector<std::string_view> Views(const std::vector<std::string>& list) {
    return std::vector<std::string_view>(list.begin(), list.end());
  }

  std::vector<std::string_view> mention_kinds_, build_tools_, allowed_tools_, app_tools_, loaded_,
      enabled_modules_;
  std::vector<ConnectedAppView> apps_;
  RouteRequestView view_;
};

std::vector<std::string> Strings(const std::vector<std::string_view>& views) {
  return std::vector<std::string>(views.begin(), views.end());
}

}  // namespace

Router::Router(PlaybookSet set) {
  auto t = std::make_shared<Tables>();
  t->set = std::move(set);
  const std::vector<Playbook>& all = t->set.all();

  for (std::uint32_t p = 0; p < all.size(); ++p) {
    for (const std::string& term : all[p].match) {
      std::vector<std::string> words = SplitWords(term);
      if (words.empty()) continue;
      const bool phrase = term.find(' ') != std::string::npos;
      t->terms.push_back({std::move(words), phrase ? kPhraseScore : kWordScore, p});
    }
  }
  for (std::uint32_t i = 0; i < t->terms.size(); ++i) {
    const std::string_view first = t->terms[i].words.front();
    const auto group = static_cast<std::uint32_t>(t->term_groups.size());
    if (t->terms_by_first_word.Insert(first, group)) t->term_groups.emplace_back();
    t->term_groups[t->terms_by_first_word.Get(first)].push_back(i);
  }

  std::vector<std::string> names = KnownToolNames(t->set);
  t->tool_names = std::move(names);
  for (std::uint32_t i = 0; i < t->tool_names.size(); ++i) t->tool_ids.Insert(t->tool_names[i], i);
  for (const Playbook& pb : all) {
    std::vector<std::uint32_t> ids;
    for (const std::string& tool : pb.tools) ids.push_back(t->ToolId(tool));
    t->playbook_tools.push_back(std::move(ids));
  }
  for (std::string_view tool : kCoreTools) t->core_tools.push_back(t->ToolId(tool));
  for (std::string_view tool : kSimpleTodoTools) t->simple_todo_tools.push_back(t->ToolId(tool));
  t->create_tasks_tool = t->ToolId("hub_create_tasks");

  t->tasks = t->PlaybookIndex(kTasksPlaybook);
  t->boards = t->PlaybookIndex(kBoardsPlaybook);
  t->apps = t->PlaybookIndex(kAppsPlaybook);
  t->meetings = t->PlaybookIndex(kMeetingsPlaybook);
  if (t->tasks != kNone) {
    const std::string& body = all[t->tasks].body;
    std::string first_line = body.substr(0, body.find('\n'));
    if (first_line.rfind(kSimpleTodoPrefix, 0) == 0) t->recipe = std::move(first_line);
  }
  tables_ = std::move(t);
}

const PlaybookSet& Router::playbooks() const { return tables_->set; }

const std::vector<std::string>& Router::known_tools() const { return tables_->tool_names; }

RouteResult Router::Route(const RouteRequest& request) const {
  const RequestViews views(request);
  RouteResultView routed = Route(views.view());
  RouteResult result;
  result.guides = Strings(routed.guides);
  result.tools = Strings(routed.tools);
  result.simple_todo = routed.simple_todo;
  result.recipe = std::string(routed.recipe);
  result.scores.reserve(routed.scores.size());
  for (const RouteResultView::Score& s : routed.scores) {
    result.scores.push_back({std::string(s.name), s.score, s.path_bonus});
  }
  return result;
}

RouteResultView Router::Route(const RouteRequestView& request) const {
  const Tables& t = *tables_;
  const std::vector<Playbook>& all = t.set.all();
  const std::size_t n = all.size();
  RouteResultView result;

  Scoring s;
  s.visible.resize(n);
  s.match.assign(n, 0);
  s.score.assign(n, 0);
  s.path.assign(n, 0);
  for (std::size_t p = 0; p < n; ++p) s.visible[p] = IsVisible(all[p], request);

  const MessageWords words(request.message);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::uint32_t group = t.terms_by_first_word.Get(words.words()[i].text);
    if (group == NameIndex::kAbsent) continue;
    for (std::uint32_t term_index : t.term_groups[group]) {
      const Tables::Term& term = t.terms[term_index];
      if (term.score > s.match[term.playbook] && words.MatchesAt(i, term.words)) {
        s.match[term.playbook] = term.score;
      }
    }
  }
  for (std::uint32_t p = 0; p < n; ++p) {
    if (!s.visible[p]) continue;
    s.score[p] = s.match[p];
    for (std::string_view kind : request.mention_kinds) {
      if (Contains(all[p].mentions, kind)) {
        s.score[p] += kMentionScore;
        break;
      }
    }
    if (s.score[p] == 0) continue;
    s.ranked.push_back(p);
    if (!request.open_path.empty()) {
      for (const std::string& path : all[p].paths) {
        if (PathUnder(request.open_path, path)) {
          s.path[p] = kPathBonus;
          break;
        }
      }
    }
  }
  std::sort(s.ranked.begin(), s.ranked.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (s.score[a] != s.score[b]) return s.score[a] > s.score[b];
    if (s.path[a] != s.path[b]) return s.path[a] > s.path[b];
    return all[a].name < all[b].name;
  });
  for (std::uint32_t p : s.ranked) result.scores.push_back({all[p].name, s.score[p], s.path[p]});

  // Guides by rank, then the custom-board and app extras.
  std::vector<std::uint32_t> guides(s.ranked.begin(),
                                    s.ranked.begin() + std::min(kMaxGuides, s.ranked.size()));
  auto is_guide = [&](std::uint32_t p) {
    return std::find(guides.begin(), guides.end(), p) != guides.end();
  };
  if (request.custom_board && t.tasks != kNone && t.boards != kNone && s.visible[t.boards] &&
      is_guide(t.tasks) && !is_guide(t.boards)) {
    // Boards takes the other slot, whichever playbook held it.
    guides = {t.tasks, t.boards};
  }
  const bool app_named = NamesConnectedApp(words, request.connected_apps);
  bool meeting_notes_app = false;
  if (t.meetings != kNone && s.match[t.meetings] > 0 && s.visible[t.meetings]) {
    const bool has_app = std::any_of(request.connected_apps.begin(), request.connected_apps.end(),
                                     [](const ConnectedAppView& a) { return a.meeting_notes; });
    meeting_notes_app =
        has_app && std::any_of(words.words().begin(), words.words().end(),
                               [](const Word& w) { return In(kMeetingNotesWords, w.text); });
  }
  if ((app_named || meeting_notes_app) && t.apps != kNone && s.visible[t.apps] &&
      !is_guide(t.apps)) {
    guides.push_back(t.apps);
  }

  ToolCollector tools(t.tool_names, t.tool_ids, request.allowed_tools, &result.tools);

  // Simple todo: the words test, and nothing else in the message.
  bool simple = !request.toolsets_off && request.loaded.empty() && !request.custom_board &&
                !app_named && !t.recipe.empty() && t.tasks != kNone && s.visible[t.tasks] &&
                s.match[t.tasks] > 0 && tools.Allowed(t.create_tasks_tool) &&
                LooksLikeTodo(request.message, words);
  for (std::uint32_t p = 0; simple && p < n; ++p) {
    if (p != t.tasks && s.visible[p] && s.match[p] > 0) simple = false;
  }
  for (std::string_view kind : request.mention_kinds) {
    if (!In(kSimpleTodoMentionKinds, kind)) simple = false;
  }
  if (simple) {
    result.simple_todo = true;
    result.recipe = t.recipe;
    for (std::uint32_t id : t.simple_todo_tools) tools.AddKnown(id);
    return result;
  }

  for (std::uint32_t p : guides) result.guides.push_back(all[p].name);

  if (request.toolsets_off) {
    for (std::uint32_t id : t.core_tools) tools.AddKnown(id);
    std::vector<std::uint32_t> rest(request.allowed_tools.size());
    for (std::uint32_t i = 0; i < rest.size(); ++i) rest[i] = i;
    std::stable_sort(rest.begin(), rest.end(), [&](std::uint32_t a, std::uint32_t b) {
      return request.allowed_tools[a] < request.allowed_tools[b];
    });
    for (std::uint32_t i : rest) tools.AddAllowed(i);
    return result;
  }

  std::optional<AppTools> app_tools;  // Built when a playbook wants them.
  auto add_playbook_tools = [&](std::uint32_t p) {
    for (std::uint32_t id : t.playbook_tools[p]) tools.AddKnown(id);
    if (!all[p].app_tools) return;
    if (!app_tools) app_tools.emplace(request.app_tools);
    for (std::size_t i = 0; i < request.allowed_tools.size(); ++i) {
      if (app_tools->Contains(request.allowed_tools[i])) tools.AddAllowed(i);
    }
  };
  for (std::uint32_t id : t.core_tools) tools.AddKnown(id);
  for (std::uint32_t p : guides) add_playbook_tools(p);
  for (std::string_view name : request.loaded) {
    const std::uint32_t p = t.PlaybookIndex(name);
    if (p != kNone && s.visible[p]) add_playbook_tools(p);
  }
  return result;
}

bool Router::IsSimpleTodo(const RouteRequest& request) const { return Route(request).simple_todo; }

Result<std::string> Router::PlaybookText(std::string_view name, const RouteRequest& request) const {
  const Playbook* pb = tables_->set.Find(name);
  if (pb == nullptr || !IsVisible(*pb, request)) {
    std::string known;
    for (const Playbook& p : tables_->set.all()) {
      if (!IsVisible(p, request)) continue;
      if (!known.empty()) known += ", ";
      known += p.name;
    }
    return Status(codes::kNotFound,
                  "no playbook called '" + std::string(name) + "' (playbooks: " + known + ")");
  }
  if (pb->name == kMapPlaybook) return pb->body;
  std::string text = "# " + pb->title + "\n\n" + pb->body;
  for (const std::string& include : pb->include) {
    if (const Playbook* inc = tables_->set.Find(include); inc != nullptr && !inc->body.empty()) {
      text += "\n\n" + inc->body;
    }
  }
  return text;
}

Result<HowToResult> HowTo(const Router& router, std::string_view name, RouteRequest* request) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::string text, router.PlaybookText(name, *request));
  if (!Contains(request->loaded, name)) request->loaded.emplace_back(name);
  return HowToResult{std::move(text), router.Route(*request)};
}

RouteResult RoutePlaybooks(const PlaybookSet& set, const RouteRequest& request) {
  return Router(set).Route(request);
}

std::vector<std::string> KnownToolNames(const PlaybookSet& set) {
  std::vector<std::string> names(kCoreTools.begin(), kCoreTools.end());
  for (const Playbook& pb : set.all()) {
    names.insert(names.end(), pb.tools.begin(), pb.tools.end());
    names.insert(names.end(), pb.requires_tools.begin(), pb.requires_tools.end());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace ensemble::core::playbooks
