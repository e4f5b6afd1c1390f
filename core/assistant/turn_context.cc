#include "core/assistant/turn_context.h"

#include <set>
#include <string_view>
#include <utility>

#include "core/base/id.h"
#include "core/calendar/week_date.h"
#include "core/playbooks/playbook.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {
namespace {

// Writes `text` (already bounded) as a Markdown quote, one "> " per line, so
// no line of it can pass for a line of the context.
void AppendQuoted(std::string_view value, std::string& out) {
  std::string block = Block(value);
  while (!block.empty() && block.back() == '\n') block.pop_back();
  size_t start = 0;
  while (start <= block.size()) {
    size_t end = block.find('\n', start);
    if (end == std::string::npos) end = block.size();
    const std::string_view line = std::string_view(block).substr(start, end - start);
    out += line.empty() ? ">" : "> ";
    out += line;
    out += '\n';
    start = end + 1;
  }
}

// The head of `text` within `max_chars`; `*partial` is set when cut.
std::string Bounded(std::string_view value, size_t max_chars, bool* partial) {
  const std::string clean = CleanUtf8(value);
  bool cut = false;
  std::string head(HeadChars(clean, max_chars, &cut));
  if (cut) *partial = true;
  return head;
}

bool HasLink(const RecordLink& link) { return !link.title.empty() || !link.id.empty(); }

// "Label: a, b, c" for up to kMaxLinksPerField links, then "and N more".
void AppendLinks(std::string_view label, const std::vector<RecordLink>& links, size_t max,
                 std::string_view prefix, std::string& out) {
  std::vector<std::string> written;
  std::set<std::string> seen;
  size_t total = 0;
  for (const RecordLink& link : links) {
    if (!HasLink(link)) continue;
    std::string formatted = FormatRecordLink(link, kMaxTitleChars);
    if (!seen.insert(formatted).second) continue;
    ++total;
    if (written.size() < max) written.push_back(std::move(formatted));
  }
  if (written.empty()) return;
  out += prefix;
  out += label;
  out += ": ";
  for (size_t i = 0; i < written.size(); ++i) {
    if (i > 0) out += ", ";
    out += written[i];
  }
  if (total > written.size()) out += " and " + std::to_string(total - written.size()) + " more";
  out += '\n';
}

void AppendField(std::string_view label, std::string_view value, std::string& out) {
  const std::string v = OneLine(value, kMaxFieldChars);
  if (v.empty()) return;
  out += "- ";
  out += label;
  out += ": ";
  out += v;
  out += '\n';
}

void AppendToday(const TurnContextInput& in, std::string& out) {
  if (const std::optional<calendar::WeekDate> d = calendar::ParseWeekDate(in.today)) {
    out += "Today: ";
    out += calendar::WeekdayName(d->iso_weekday);
    out += ' ';
    out += in.today;
    out += ", week ";
    out += calendar::IsoWeekLabel(*d);
    out += '\n';
  }
  const std::string zone = OneLine(in.time_zone, kMaxFieldChars);
  if (!zone.empty()) out += "Time zone: " + zone + '\n';
}

void AppendView(const SurfaceInput& s, std::string& out) {
  const std::string tab = OneLine(s.tab, kMaxFieldChars);
  if (s.kind != SurfaceKind::kNone || !tab.empty()) {
    out += "View: ";
    out += SurfaceKindName(s.kind);
    if (!tab.empty())
      out += std::string(s.kind != SurfaceKind::kNone ? ", " : "") + "tab \"" + tab + "\"";
    out += '\n';
  }
  std::vector<std::string> filters;
  size_t more_filters = 0;
  for (const SurfaceFilter& f : s.filters) {
    const std::string name = OneLine(f.name, kMaxFilterNameChars);
    const std::string value = OneLine(f.value, kMaxFilterValueChars);
    if (name.empty() || value.empty()) continue;
    if (filters.size() == kMaxFilters) {
      ++more_filters;
      continue;
    }
    filters.push_back(name + " = " + value);
  }
  if (!filters.empty()) {
    out += "Filters: ";
    for (size_t i = 0; i < filters.size(); ++i) {
      if (i > 0) out += "; ";
      out += filters[i];
    }
    if (more_filters > 0) out += " (and " + std::to_string(more_filters) + " more)";
    out += '\n';
  }
  if (s.shown_count) out += "Shown: " + std::to_string(*s.shown_count) + '\n';

  std::vector<std::string_view> ids;
  std::set<std::string_view> seen;
  for (const std::string& id : s.selected_ids) {
    if (IsValidId(id) && seen.insert(id).second) ids.push_back(id);
  }
  if (!ids.empty()) {
    const size_t written = ids.size() < kMaxSelectedIds ? ids.size() : kMaxSelectedIds;
    out += "Selected ids (" + std::to_string(ids.size());
    if (written < ids.size()) out += ", the first " + std::to_string(written) + " here";
    out += "): ";
    for (size_t i = 0; i < written; ++i) {
      if (i > 0) out += ", ";
      out += ids[i];
    }
    out += '\n';
  }
}

void AppendOpenItem(const OpenItem& item, std::string& out) {
  if (!HasLink(item.record)) return;
  out += "Open: " + FormatRecordLink(item.record, kMaxTitleChars) + '\n';
  AppendField("Status", item.status, out);
  AppendField("Due", item.due, out);
  AppendField("Priority", item.priority, out);
  if (HasLink(item.project)) {
    out += "- Project: " + FormatRecordLink(item.project, kMaxTitleChars) + '\n';
  }
  AppendLinks("People", item.people, kMaxLinksPerField, "- ", out);
  AppendField("Repo", item.repo, out);
  AppendLinks("Deliverables", item.deliverables, kMaxLinksPerField, "- ", out);
  AppendLinks("Skills", item.skills, kMaxLinksPerField, "- ", out);
  AppendLinks("Attached files", item.files, kMaxLinksPerField, "- ", out);
  bool partial = item.page_excerpt_is_partial;
  const std::string excerpt = Bounded(item.page_excerpt, kMaxPageExcerptChars, &partial);
  if (!text::Trim(excerpt).empty()) {
    out += partial ? "- Page excerpt (the start of a longer page):\n" : "- Page text:\n";
    AppendQuoted(excerpt, out);
  }
  bool diagram_cut = false;
  const std::string diagram = Bounded(item.diagram_source, kMaxDiagramSourceChars, &diagram_cut);
  if (!text::Trim(diagram).empty()) {
    out += diagram_cut ? "- Diagram source (its start):\n" : "- Diagram source:\n";
    AppendQuoted(diagram, out);
  }
}

void AppendSelectedText(std::string_view selected, std::string& out) {
  bool cut = false;
  const std::string head = Bounded(selected, kMaxSelectedTextChars, &cut);
  if (text::Trim(head).empty()) return;
  out += "Selected text";
  if (cut)
    out +=
        " (its first " + std::to_string(kMaxSelectedTextChars) + " characters; the rest was cut)";
  out += ":\n";
  AppendQuoted(head, out);
}

void AppendAiBlockText(const TurnContextInput& in, std::string& out) {
  bool partial = in.ai_block_text_is_partial;
  const std::string page = Bounded(in.ai_block_text, kMaxAiBlockTextChars, &partial);
  if (text::Trim(page).empty()) return;
  out += partial ? "AI block's page (its start):\n" : "AI block's page:\n";
  AppendQuoted(page, out);
}

void AppendGuides(const std::vector<GuideBlock>& guides, std::string& out) {
  size_t written = 0;
  std::set<std::string_view> seen;
  for (const GuideBlock& g : guides) {
    if (written == kMaxGuides) break;
    if (!playbooks::IsValidPlaybookName(g.name) || !seen.insert(g.name).second) continue;
    bool cut = false;
    std::string body = Block(Bounded(g.body, kMaxGuideChars, &cut));
    while (!body.empty() && body.back() == '\n') body.pop_back();
    out += "<guide name=\"" + g.name + "\">\n";
    out += body;
    if (cut) out += "\n(The rest of this playbook: hub_how_to " + g.name + ".)";
    out += "\n</guide>\n";
    ++written;
  }
}

}  // namespace

std::string_view SurfaceKindName(SurfaceKind kind) {
  switch (kind) {
    case SurfaceKind::kDesk:
      return "desk";
    case SurfaceKind::kBoard:
      return "board";
    case SurfaceKind::kContext:
      return "context";
    case SurfaceKind::kWidgets:
      return "widgets";
    case SurfaceKind::kNone:
      break;
  }
  return "";
}

std::string TurnContext(const TurnContextInput& in) {
  std::string body;
  body.reserve(4096);
  AppendToday(in, body);
  if (in.surface) AppendView(*in.surface, body);
  if (in.open_item) AppendOpenItem(*in.open_item, body);
  AppendSelectedText(in.selected_text, body);
  AppendLinks("Mentioned", in.mentions, kMaxMentionsInContext, "", body);
  AppendAiBlockText(in, body);
  AppendGuides(in.guides, body);
  if (body.empty()) return "";
  return "<context>\n" + body + "</context>\n";
}

}  // namespace ensemble::core::assistant
