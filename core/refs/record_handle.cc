#include "core/refs/record_handle.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/base/id.h"
#include "core/refs/text_scan.h"
#include "core/text/utf8.h"

namespace ensemble::core::refs {

using internal::IsWord;

std::string HandleOf(std::string_view kind, std::string_view id) {
  std::string out(kRecordScheme);
  out.append(kind).append("/").append(id);
  return out;
}

std::size_t ParseRecordLink(std::string_view s, std::string_view* kind, std::string_view* id) {
  if (!internal::StartsWith(s, kRecordScheme)) return 0;
  const std::size_t k = kRecordScheme.size();
  std::size_t slash = k;
  while (slash < s.size() && (IsWord(s[slash]) || s[slash] == '-')) ++slash;
  if (slash == k || slash >= s.size() || s[slash] != '/') return 0;
  const std::size_t end = slash + 1 + kIdLength;
  if (end > s.size()) return 0;
  const std::string_view candidate = s.substr(slash + 1, kIdLength);
  if (!IsValidId(candidate) || (end < s.size() && IsWord(s[end]))) return 0;
  *kind = s.substr(k, slash - k);
  *id = candidate;
  return end;
}

std::vector<RecordHandle> FindRecordLinks(std::string_view text, std::size_t max) {
  std::vector<RecordHandle> out;
  for (std::size_t at = text.find(kRecordScheme); at != std::string_view::npos && out.size() < max;
       at = text.find(kRecordScheme, at + 1)) {
    std::string_view kind, id;
    if (ParseRecordLink(text.substr(at), &kind, &id) == 0) continue;
    RecordHandle handle{std::string(kind), std::string(id)};
    if (std::find(out.begin(), out.end(), handle) == out.end()) out.push_back(std::move(handle));
  }
  return out;
}

namespace {

// The app's views that open one record (web-shell/app.js, openRecord), and
// the kind each opens.
constexpr std::pair<std::string_view, std::string_view> kRecordViews[] = {
    {"tasks", "task"}, {"projects", "project"}, {"people", "person"},
    {"pages", "page"}, {"boards", "board"},     {"routines", "routine"}};

// The record an address of the app names ("…#/tasks/<id>", or the
// assistant's "#/task/<id>"), or nothing.
std::optional<RecordHandle> ParseAppLink(std::string_view link) {
  const std::size_t hash = link.find("#/");
  if (hash == std::string_view::npos) return std::nullopt;
  // What comes before is the app's own address, never read: one word, a
  // web address or a path.
  const std::string_view app = link.substr(0, hash);
  if (!app.empty() && !app.starts_with("http://") && !app.starts_with("https://") &&
      !app.starts_with("/"))
    return std::nullopt;
  for (char c : app) {
    if (static_cast<unsigned char>(c) <= ' ') return std::nullopt;
  }
  const std::string_view route = link.substr(hash + 2);
  const std::size_t slash = route.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view view = route.substr(0, slash), id = route.substr(slash + 1);
  if (id.size() != kIdLength || !IsValidId(id)) return std::nullopt;
  for (const auto& [plural, kind] : kRecordViews) {
    if (view == plural || view == kind) return RecordHandle{std::string(kind), std::string(id)};
  }
  return std::nullopt;
}

}  // namespace

Result<RecordHandle> ParseItemRef(std::string_view ref) {
  const std::string_view trimmed = text::Trim(ref);
  std::string_view kind, id;
  if (!trimmed.empty() && ParseRecordLink(trimmed, &kind, &id) == trimmed.size()) {
    return RecordHandle{std::string(kind), std::string(id)};
  }
  if (std::optional<RecordHandle> linked = ParseAppLink(trimmed)) return *std::move(linked);
  return InvalidArgument(
      "ref must be a record handle, ensemble://<kind>/<id>, or the app's link to one"
      " (…#/tasks/<id>)");
}

}  // namespace ensemble::core::refs
