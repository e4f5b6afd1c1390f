// A message's context (spec §3 turnContext): the <context> block placed in
// front of the person's message. It holds what changes from one message to
// the next, which the instructions (instructions.h) must not: today with its
// weekday and ISO week and the time zone, the view, the open item, selected
// text, the person's @ mentions, an AI block's page text and, last, the
// playbooks routed for this message as <guide name="..."> blocks.
//
// Only what is there is written: an absent field gives no line. Every value
// from people, pages or apps is bounded (the named constants below, counted in
// characters), kept valid UTF-8, and cannot end the <context> or <guide> tags
// early or forge a record link (prompt_text.h). Multi-line text is quoted
// ("> " before each line) so it cannot pass for a line of the context.
// Lists keep the caller's order (the view's order, the order of mentions in
// the message, routing order for guides); exact repeats are written once.
//
// Thread-safety: pure function; safe to call concurrently.

#ifndef ENSEMBLE_CORE_ASSISTANT_TURN_CONTEXT_H_
#define ENSEMBLE_CORE_ASSISTANT_TURN_CONTEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/assistant/prompt_text.h"

namespace ensemble::core::assistant {

// Spec §3: selected text up to 2,000 characters; selected ids up to 100.
inline constexpr std::size_t kMaxSelectedTextChars = 2000;
inline constexpr std::size_t kMaxSelectedIds = 100;

// Our bounds, chosen so a context with every field at its maximum stays
// within kTurnContextBudgetChars (prompt_catalog.h).
inline constexpr std::size_t kMaxFilters = 6;
inline constexpr std::size_t kMaxFilterNameChars = 30;
inline constexpr std::size_t kMaxFilterValueChars = 60;
inline constexpr std::size_t kMaxTitleChars = 80;    // a record link's title
inline constexpr std::size_t kMaxFieldChars = 60;    // status, due, tab, repo, ...
inline constexpr std::size_t kMaxLinksPerField = 4;  // people, deliverables, files, ...
inline constexpr std::size_t kMaxMentionsInContext = 12;
inline constexpr std::size_t kMaxPageExcerptChars = 800;
inline constexpr std::size_t kMaxDiagramSourceChars = 400;
inline constexpr std::size_t kMaxAiBlockTextChars = 800;
// Routing preloads at most two playbooks, plus `apps` as a third.
inline constexpr std::size_t kMaxGuides = 3;
inline constexpr std::size_t kMaxGuideChars = 1200;

// The kind of view the message was sent from (AssistantPageContext.surface).
enum class SurfaceKind { kNone, kDesk, kBoard, kContext, kWidgets };

// "desk", "board", "context", "widgets"; "" for kNone.
std::string_view SurfaceKindName(SurfaceKind kind);

struct SurfaceFilter {
  std::string name;   // e.g. "status", "customBoard"
  std::string value;  // e.g. "open", the board's title
};

struct SurfaceInput {
  SurfaceKind kind = SurfaceKind::kNone;
  std::string tab;
  std::vector<SurfaceFilter> filters;  // only those that narrow the view
  std::optional<std::size_t> shown_count;
  // Record ids, already resolved in the active space; anything that is not a
  // record id is left out.
  std::vector<std::string> selected_ids;
};

// The record open beside the chat (loadOpenPage).
struct OpenItem {
  RecordLink record;
  std::string status;
  std::string due;  // "YYYY-MM-DD"
  std::string priority;
  RecordLink project;  // absent when its title and id are empty
  std::vector<RecordLink> people;
  std::string repo;
  std::vector<RecordLink> deliverables;
  std::vector<RecordLink> skills;
  std::vector<RecordLink> files;  // attached files
  std::string page_excerpt;
  // The loader gave part of the page, not all of it (so the context never
  // calls an excerpt the whole page). Cutting here sets it too.
  bool page_excerpt_is_partial = false;
  std::string diagram_source;
};

// A routed playbook's recipe.
struct GuideBlock {
  std::string name;  // a playbook name; a guide with an invalid one is skipped
  std::string body;
};

struct TurnContextInput {
  std::string today;  // "YYYY-MM-DD" in the person's time zone; invalid: no line
  std::string time_zone;
  std::optional<SurfaceInput> surface;
  std::optional<OpenItem> open_item;
  std::string selected_text;
  std::vector<RecordLink> mentions;  // the person's @ mentions, resolved
  std::string ai_block_text;         // the page text of an AI block's page
  bool ai_block_text_is_partial = false;
  std::vector<GuideBlock> guides;  // in routing order
};

// The <context>…</context> block, ending in a newline; "" when the input has
// nothing to say.
std::string TurnContext(const TurnContextInput& input);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_TURN_CONTEXT_H_
