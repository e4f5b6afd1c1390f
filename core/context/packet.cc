#include "core/context/packet.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/refs/mentions.h"
#include "core/refs/record_handle.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;

// Section headings, by relation.
constexpr std::pair<std::string_view, std::string_view> kHeadings[] = {
    {"project", "Project"},
    {"page", "Page"},
    {"parent", "Parent page"},
    {"people", "People"},
    {"depends_on", "Depends on"},
    {"blocks", "Blocks"},
    {"related", "Related open work"},
    {"done_before", "Done before"},
    {"boards", "Boards"},
    {"mentions", "Mentions"},
    {"mentioned_in", "Mentioned in"},
    {"comments", "Comments"},
    {"open_tasks", "Open tasks"},
    {"deliverables", "Deliverables"},
    {"done_tasks", "Done tasks"},
    {"pages", "Pages"},
    {"projects", "Projects"},
    {"waiting_on", "Waiting on them"},
    {"subpages", "Subpages"},
    {"tasks", "Tasks"},
};

struct Section {
  std::string rel;
  std::string_view heading;
  std::vector<std::string> rows;
  std::size_t total = 0;  // What the graph holds.
};

// `s` on one line: a title or a body pasted with line breaks stays one row.
std::string OneLine(std::string_view s) {
  std::string out(text::Trim(s));
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

std::string Str(const json& item, const char* field) {
  const auto it = item.find(field);
  return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "- [Title](ensemble://kind/id) (details)": the link is the row's handle,
// and it tells the turn the record's title (refs::kPacketKey).
std::string Row(const json& item) {
  const std::string kind = Str(item, "kind");
  std::vector<std::string> details;
  for (const char* field : {"status", "role", "relationship", "column"}) {
    if (!Str(item, field).empty()) details.push_back(Str(item, field));
  }
  if (!Str(item, "due").empty()) details.push_back("due " + Str(item, "due"));
  if (kind == "deliverable") details.push_back(item.value("done", false) ? "done" : "not done");
  std::string title = Str(item, "title");
  if (kind == "comment") {
    title = "\u201C" + Str(item, "body") + "\u201D";
    details.push_back(item.value("resolved", false) ? "resolved" : "open");
  }
  std::string row = "- " + refs::MentionLink({kind, Str(item, "id"), OneLine(title)});
  for (std::size_t i = 0; i < details.size(); ++i)
    row += (i ? ", " : " (") + OneLine(details[i]) + (i + 1 == details.size() ? ")" : "");
  return row;
}

std::string KindName(std::string kind) {
  if (!kind.empty()) kind[0] = static_cast<char>(kind[0] - 'a' + 'A');
  return kind;
}

// The facts: the head ("# Task: Title" and its handle, which no budget
// cuts), a line per fact, and the summary.
struct Facts {
  std::string head;
  std::string lines;
  std::string summary;
  std::string Text() const { return head + lines + (summary.empty() ? "" : "\n" + summary + "\n"); }
};

Facts FactsOf(const json& record) {
  const std::string kind = Str(record, "kind");
  Facts out;
  out.head = "# " + KindName(kind) + ": " +
             text::TruncateChars(OneLine(Str(record, "title")), kPacketTitleChars) + "\n" +
             refs::HandleOf(kind, Str(record, "id")) + "\n";
  const json& facts = record["facts"];
  for (const std::string name : {"status", "due", "start", "priority", "labels", "email", "role",
                                 "team", "relationship", "done", "columns"}) {
    if (!facts.contains(name)) continue;
    const json& value = facts[name];
    std::string shown;
    if (value.is_string()) {
      shown = value.get<std::string>();
    } else if (value.is_boolean()) {
      shown = value.get<bool>() ? "yes" : "no";
    } else if (name == "labels") {
      for (const json& l : value) shown += (shown.empty() ? "" : ", ") + l.get<std::string>();
    } else if (name == "columns") {
      for (const json& c : value) {
        shown += (shown.empty() ? "" : ", ") + c.value("title", std::string()) + " (" +
                 std::to_string(c.value("cards", int64_t{0})) + ")";
      }
    } else {
      continue;
    }
    std::string label = name;
    label[0] = static_cast<char>(label[0] - 'a' + 'A');
    out.lines += "- " + label + ": " + OneLine(shown) + "\n";
  }
  out.summary = Str(record, "summary");
  return out;
}

std::string Render(const std::string& facts, const std::vector<Section>& sections) {
  std::string out = facts;
  std::string more;
  for (const Section& s : sections) {
    if (!s.rows.empty()) {
      out += "\n## " + std::string(s.heading) + "\n";
      for (const std::string& row : s.rows) out += row + "\n";
    }
    if (s.total > s.rows.size()) {
      more += (more.empty() ? "" : ", ") + s.rel + " (" + std::to_string(s.total - s.rows.size()) +
              " from offset " + std::to_string(s.rows.size()) + ")";
    }
  }
  if (!more.empty()) {
    out += "\n## More\nhub_item_context with this record's kind and id, rel and offset reads: " +
           more + ".\n";
  }
  return out;
}

}  // namespace

std::string PacketOf(const json& neighbors, std::size_t budget) {
  budget = std::clamp(budget, kMinPacketChars, kMaxPacketChars);
  const json& record = neighbors["record"];
  Facts facts = FactsOf(record);
  std::vector<Section> sections;
  for (const auto& [rel, page] : neighbors["relations"].items()) {
    Section s{rel, rel, {}, page.value("total", std::size_t{0})};
    for (const auto& [name, heading] : kHeadings) {
      if (name == rel) s.heading = heading;
    }
    for (const json& item : page["items"]) s.rows.push_back(Row(item));
    sections.push_back(std::move(s));
  }
  // The graph lists relations by name; the packet by importance.
  const std::vector<std::string_view> order = RelationsOf(Str(record, "kind"));
  auto rank = [&](const Section& s) {
    return std::find(order.begin(), order.end(), s.rel) - order.begin();
  };
  std::stable_sort(sections.begin(), sections.end(),
                   [&](const Section& a, const Section& b) { return rank(a) < rank(b); });
  std::string out = Render(facts.Text(), sections);
  while (text::CountCodePoints(out) > budget) {
    auto last = std::find_if(sections.rbegin(), sections.rend(),
                             [](const Section& s) { return !s.rows.empty(); });
    if (last != sections.rend()) {
      last->rows.pop_back();
    } else if (!facts.summary.empty()) {
      facts.summary.clear();  // Only the facts are left: the summary goes first.
    } else {
      // Then the fact lines and what was left out, cut; the head stays whole
      // (its title is cut to kPacketTitleChars, so it fits the least budget).
      const std::string rest = out.substr(facts.head.size());
      return facts.head + text::TruncateChars(rest, budget - text::CountCodePoints(facts.head));
    }
    out = Render(facts.Text(), sections);
  }
  return out;
}

Result<std::string> WorkPacket(tools::ToolContext& ctx, const std::string& kind,
                               const std::string& id, std::size_t budget) {
  ENSEMBLE_ASSIGN_OR_RETURN(json neighbors,
                            ItemNeighbors(ctx, {kind, id, "", kPacketRelationItems, 0}));
  return PacketOf(neighbors, budget);
}

}  // namespace ensemble::core::context
