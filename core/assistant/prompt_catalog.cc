#include "core/assistant/prompt_catalog.h"

#include <cstdio>
#include <string_view>
#include <utility>

#include "core/assistant/instructions.h"
#include "core/assistant/turn_context.h"

namespace ensemble::core::assistant {
namespace {

// A record id of the right shape (core/base/id.h), numbered so samples are
// distinct and the same on every build.
std::string SampleId(int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "01JDQ%021d", n);
  return buf;
}

// `min_chars` or more of plain prose in lines of about 70 characters, so
// quoted blocks carry their real per-line cost.
std::string Prose(size_t min_chars) {
  static constexpr std::string_view kLines[] = {
      "The client asked for the revised draft by Friday, with the exhibits.",
      "Mira reviews clause 4.2 against the supplier's counter-proposal first.",
      "Open questions: the liability cap, the notice period, who signs off.",
      "Next step: send the summary to the partners and book a call on Monday.",
  };
  std::string out;
  for (size_t i = 0; out.size() < min_chars; ++i) {
    out += kLines[i % 4];
    out += '\n';
  }
  return out;
}

// `min_chars` or more of a playbook-like recipe.
std::string Recipe(size_t min_chars) {
  static constexpr std::string_view kLines[] = {
      "1. Find before you change: hub_list_tasks gives ids; a mentioned task's id is exact.",
      "2. Create with hub_create_tasks, one call for every task in the request.",
      "3. Change with hub_update_task; send the values you read as the base.",
      "4. Several matches: ask with \"Choices:\". Name tasks by title, never by id.",
  };
  std::string out;
  for (size_t i = 0; out.size() < min_chars; ++i) {
    out += kLines[i % 4];
    out += '\n';
  }
  return out;
}

std::vector<PlaybookIndexEntry> SamplePlaybooks() {
  return {
      {"apps",
       "What is connected, and searching, reading, attaching or posting updates in "
       "connected apps"},
      {"boards",
       "Read, make, change or delete custom boards, and put, move or take cards off "
       "them"},
      {"calendar",
       "Saved events, connected Google and Outlook calendars, availability and free "
       "time"},
      {"files", "List, open, save, tag or trash files saved in Ensemble"},
      {"map", "What Ensemble has and which playbook covers each area"},
      {"meetings",
       "List, read, write, change or delete meeting notes, suggest tasks from a "
       "meeting, import notes from a meeting app"},
      {"pages",
       "List, read, write, append to, move, export or delete pages and notes, and "
       "their comments"},
      {"people", "List, add, change or delete people, or bring in a connected app's people"},
      {"projects", "List, create, change, complete or delete projects and their deliverables"},
      {"reminders", "List, add, change, dismiss or delete reminders; add, list or stop watchers"},
      {"routines", "List, add, change, pause, resume or delete recurring routines"},
      {"settings", "Read or change allowlisted settings and the model choice"},
      {"skills",
       "List, read, make or change the person's own saved instructions (personal "
       "skills)"},
      {"tasks",
       "List, create, change, complete or delete tasks on the Ensemble board, and what "
       "is due"},
      {"web-research",
       "Look things up on the public web, read a page or PDF, and keep what was "
       "found"},
  };
}

std::vector<SkillSummary> SampleSkills() {
  static constexpr std::string_view kNames[] = {
      "Weekly client report", "Contract review checklist",
      "Meeting notes style",  "Invoice follow-up",
      "Court deadline rules", "Email tone",
      "Research memo format", "Onboarding a new client",
      "Billing codes",        "Document naming",
      "Conflict check",       "Filing in the matter folder",
      "Board minutes",        "Due diligence list",
      "Handover notes",       "Travel bookings",
      "Expense reports",      "Quarterly review",
      "Press requests",       "Morning brief"};
  std::vector<SkillSummary> skills;
  for (int i = 0; i < 20; ++i) {
    std::string description =
        "How Mira wants this done: the order of the sections, the words to avoid, who to copy, "
        "what to check twice before anything leaves the firm, and where the finished work is "
        "filed afterwards, every time.";
    // The morning brief's own skill has a purpose and is left out.
    std::string purpose = i == 19 ? "morning-brief" : "";
    skills.push_back(
        {SampleId(100 + i), std::string(kNames[i]), std::move(description), std::move(purpose)});
  }
  return skills;
}

std::vector<ConnectedApp> SampleApps() {
  static constexpr std::string_view kNames[] = {"GitHub",
                                                "Jira & Confluence",
                                                "Slack",
                                                "Google Drive",
                                                "Notion",
                                                "Linear",
                                                "Asana",
                                                "Trello",
                                                "HubSpot",
                                                "Salesforce",
                                                "Zendesk",
                                                "Intercom",
                                                "Figma",
                                                "Miro",
                                                "Dropbox",
                                                "Box",
                                                "Microsoft Teams",
                                                "Outlook",
                                                "Google Calendar",
                                                "Gmail",
                                                "Zoom",
                                                "Fireflies",
                                                "Otter",
                                                "Granola",
                                                "Airtable",
                                                "Monday.com",
                                                "ClickUp",
                                                "Basecamp",
                                                "GitLab",
                                                "Bitbucket",
                                                "Sentry",
                                                "Datadog",
                                                "Stripe"};
  std::vector<ConnectedApp> apps;
  for (std::string_view name : kNames) apps.push_back({std::string(name), false});
  apps.push_back({"Hugging Face", true});  // an MCP server without a sign-in
  return apps;
}

InstructionsInput SampleInstructions(WritePolicy policy) {
  InstructionsInput in;
  in.first_name = "Mira";
  in.space_name = "Chen & Partners";
  in.write_policy = policy;
  in.time_zone = "Europe/Paris";
  in.persona = "Mira works as a lawyer, leading commercial contracts for mid-sized clients.";
  in.playbooks = SamplePlaybooks();
  in.skills = SampleSkills();
  in.connected_apps = SampleApps();
  in.failing_apps = {"Front", "Close", "Smartsheet"};
  return in;
}

std::vector<RecordLink> SampleLinks(std::string_view kind, std::string_view title, int first,
                                    int count) {
  std::vector<RecordLink> out;
  for (int i = 0; i < count; ++i) {
    out.push_back({std::string(kind), SampleId(first + i),
                   std::string(title) + " " + std::to_string(i + 1) +
                       " for the Northwind supply agreement renewal and its schedules"});
  }
  return out;
}

TurnContextInput SampleTurnContext() {
  TurnContextInput in;
  in.today = "2026-11-30";
  in.time_zone = "Europe/Paris";

  SurfaceInput surface;
  surface.kind = SurfaceKind::kBoard;
  surface.tab = "Contracts in review this week for the Northwind and Contoso matters";
  for (int i = 0; i < 10; ++i) {
    surface.filters.push_back(
        {"customBoardColumnAndSwimlaneFilter" + std::to_string(i),
         "Waiting on the client's signed counter-proposal, round " + std::to_string(i + 1)});
  }
  surface.shown_count = 140;
  for (int i = 0; i < 120; ++i) surface.selected_ids.push_back(SampleId(1000 + i));
  in.surface = std::move(surface);

  OpenItem item;
  item.record = {"task", SampleId(1),
                 "Review the Northwind supply agreement renewal: liability cap, notice period, "
                 "exhibits and sign-off"};
  item.status = "In review";
  item.due = "2026-12-04";
  item.priority = "High";
  item.project = {"project", SampleId(2),
                  "Northwind Trading: supply agreement renewal and the 2027 pricing schedule"};
  item.people = SampleLinks("person", "Reviewer", 10, 6);
  item.repo = "chen-partners/northwind-contracts-and-exhibits-2027-renewal";
  item.deliverables = SampleLinks("deliverable", "Marked-up draft", 20, 6);
  item.skills = SampleLinks("skill", "Contract review checklist", 30, 6);
  item.files = SampleLinks("file", "Exhibit", 40, 6);
  item.page_excerpt = Prose(kMaxPageExcerptChars + 400);
  item.diagram_source = Prose(kMaxDiagramSourceChars + 200);
  in.open_item = std::move(item);

  in.selected_text = Prose(kMaxSelectedTextChars + 500);
  in.mentions = SampleLinks("person", "Mentioned colleague", 60, 14);
  in.ai_block_text = Prose(kMaxAiBlockTextChars + 400);
  for (std::string_view name : {"tasks", "boards", "apps"}) {
    in.guides.push_back({std::string(name), Recipe(kMaxGuideChars + 200)});
  }
  return in;
}

PromptSample Sample(std::string id, std::string title, std::string purpose, std::string text,
                    size_t budget) {
  return {std::move(id), std::move(title), std::move(purpose), std::move(text), budget};
}

}  // namespace

std::vector<PromptSample> PromptCatalog() {
  std::vector<PromptSample> out;
  constexpr WritePolicy kPolicies[] = {WritePolicy::kImmediate, WritePolicy::kPreview,
                                       WritePolicy::kNeedsMe};
  for (WritePolicy policy : kPolicies) {
    const std::string name(WritePolicyName(policy));
    out.push_back(Sample("instructions." + name, "Instructions (write mode: " + name + ")",
                         "The system message of every request in a conversation.",
                         AssistantInstructions(SampleInstructions(policy)),
                         kInstructionsBudgetChars));
  }
  InstructionsInput guest = SampleInstructions(WritePolicy::kPreview);
  guest.guest = true;
  out.push_back(Sample("instructions.guest", "Instructions (a guest of a shared space)",
                       "The system message for a guest: no connected apps.",
                       AssistantInstructions(guest), kInstructionsBudgetChars));
  out.push_back(Sample("turn-context", "A message's context",
                       "Placed in front of the person's message: today, the view, the open item, "
                       "selected text, mentions and guides.",
                       TurnContext(SampleTurnContext()), kTurnContextBudgetChars));
  for (WritePolicy policy : kPolicies) {
    const std::string name(WritePolicyName(policy));
    out.push_back(Sample("write-mode-note." + name, "Write-mode note (" + name + ")",
                         "The system line each turn adds: which writes run now.",
                         WriteModeNote(policy), kWriteModeNoteBudgetChars));
  }
  return out;
}

}  // namespace ensemble::core::assistant
