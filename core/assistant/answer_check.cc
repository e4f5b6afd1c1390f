#include "core/assistant/answer_check.h"

#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {

namespace {

constexpr std::string_view kCheckInstructions =
    "You check an assistant's answer against a checklist of what a complete answer covers. "
    "Reply with exactly COMPLETE when the answer covers every item. Otherwise reply with one "
    "line per item it leaves out, each starting with \"- \", and nothing else. Judge only "
    "whether each item is covered, not how well it is written.";

Status BadHook(const std::string& why) {
  return InvalidArgument("verify must be {\"checklist\": [...]}: " + why);
}

}  // namespace

Result<std::vector<std::string>> ParseVerifyHook(const nlohmann::json& value) {
  if (!value.is_object()) return BadHook("it is not an object");
  std::vector<std::string> checklist;
  for (const auto& [key, items] : value.items()) {
    if (key != "checklist") return BadHook("unknown field " + key);
    if (!items.is_array() || items.empty() || items.size() > kMaxChecklistItems) {
      return BadHook("the checklist has 1 to " + std::to_string(kMaxChecklistItems) + " items");
    }
    for (const nlohmann::json& item : items) {
      if (!item.is_string() || text::Trim(item.get_ref<const std::string&>()).empty()) {
        return BadHook("each checklist item is a non-empty string");
      }
      const std::string& s = item.get_ref<const std::string&>();
      if (!text::IsValidUtf8(s) || text::CountCodePoints(s) > kMaxChecklistItemChars) {
        return BadHook("each checklist item has at most " + std::to_string(kMaxChecklistItemChars) +
                       " characters");
      }
      checklist.emplace_back(text::Trim(s));
    }
  }
  if (checklist.empty()) return BadHook("the checklist is missing");
  return checklist;
}

model::ChatRequest AnswerCheckRequest(const std::vector<std::string>& checklist,
                                      std::string_view question, std::string_view answer) {
  std::string content = "Answer checklist:\n";
  for (const std::string& item : checklist) content += "- " + item + "\n";
  content += "\nThe person asked:\n";
  content += question;
  content += "\n\nThe answer:\n";
  content += answer;
  model::ChatRequest request;
  request.messages = {model::ChatMessage::System(std::string(kCheckInstructions)),
                      model::ChatMessage::User(std::move(content))};
  request.stream = false;
  return request;
}

std::string MissingFromCheck(std::string_view reply) {
  std::string_view rest = text::Trim(reply);
  if (text::EqualsIgnoringAsciiCase(rest, kAnswerCheckComplete)) return "";
  std::vector<std::string> items;
  while (!rest.empty() && items.size() < kMaxChecklistItems) {
    size_t end = rest.find('\n');
    std::string_view line = text::Trim(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (!line.empty() && (line.front() == '-' || line.front() == '*')) {
      line = text::Trim(line.substr(1));
    }
    if (line.empty() || text::EqualsIgnoringAsciiCase(line, kAnswerCheckComplete)) continue;
    items.push_back(text::TruncateChars(line, kMaxChecklistItemChars));
  }
  if (items.empty()) return "";
  std::string out = "Your answer does not yet cover:\n";
  for (const std::string& item : items) out += "- " + item + "\n";
  out +=
      "Add what is missing (look it up with the tools if you need to) and give the whole "
      "answer again.";
  return out;
}

}  // namespace ensemble::core::assistant
