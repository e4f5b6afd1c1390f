#include "core/refs/mention_json.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

}  // namespace

Result<std::vector<Mention>> MentionsFromJson(const json& mentions) {
  if (!mentions.is_array())
    return InvalidArgument("mentions must be an array of {kind, id, label}");
  if (mentions.size() > kMaxMentions) {
    return InvalidArgument("at most " + std::to_string(kMaxMentions) + " mentions per message");
  }
  std::vector<Mention> out;
  for (size_t i = 0; i < mentions.size(); ++i) {
    const json& m = mentions[i];
    const std::string where = "mentions[" + std::to_string(i) + "]";
    if (!m.is_object()) return InvalidArgument(where + " must be an object");
    for (const auto& [key, value] : m.items()) {
      if (key != "kind" && key != "id" && key != "label") {
        return InvalidArgument(where + " has an unknown field '" + key + "'");
      }
      if (!value.is_string()) return InvalidArgument(where + "." + key + " must be a string");
    }
    for (const char* key : {"kind", "id", "label"}) {
      if (!m.contains(key)) return InvalidArgument(where + "." + key + " is missing");
    }
    const std::string& kind = m["kind"].get_ref<const std::string&>();
    std::string_view canonical = CanonicalMentionKind(kind);
    if (canonical.empty())
      return InvalidArgument(where + ".kind is not a known kind: '" + kind + "'");
    Mention mention{std::string(canonical), m["id"].get<std::string>(),
                    m["label"].get<std::string>()};
    Status valid = ValidateMention(mention);
    if (!valid.ok()) return InvalidArgument(where + ": " + valid.message());
    out.push_back(std::move(mention));
  }
  return out;
}

json MentionsToJson(const std::vector<Mention>& mentions) {
  json out = json::array();
  for (const Mention& m : mentions) {
    out.push_back({{"kind", m.kind}, {"id", m.id}, {"label", m.label}});
  }
  return out;
}

json ResolvedMentionsToJson(const ResolvedMentions& resolved) {
  json unresolved = json::array();
  for (const UnresolvedMention& u : resolved.unresolved) {
    unresolved.push_back({{"kind", u.kind},
                          {"name", u.name},
                          {"matches", u.matches},
                          {"offset", u.offset},
                          {"overLimit", u.over_limit}});
  }
  return {{"text", resolved.model_text},
          {"mentions", MentionsToJson(resolved.mentions)},
          {"unresolved", std::move(unresolved)}};
}

void MapMentionDirectory::Add(std::string kind, std::string name, std::string id) {
  ids_[{std::move(kind), std::move(name)}].push_back(std::move(id));
}

std::vector<std::string> MapMentionDirectory::IdsNamed(std::string_view kind,
                                                       std::string_view name) const {
  auto it = ids_.find(std::make_pair(std::string(kind), std::string(name)));
  return it == ids_.end() ? std::vector<std::string>{} : it->second;
}

Result<MapMentionDirectory> MentionDirectoryFromJson(const json& directory) {
  MapMentionDirectory out;
  if (directory.is_null()) return out;
  if (!directory.is_object())
    return InvalidArgument("directory must be an object {kind: {name: [ids]}}");
  for (const auto& [kind, names] : directory.items()) {
    std::string_view canonical = CanonicalMentionKind(kind);
    if (canonical.empty()) return InvalidArgument("directory: unknown kind '" + kind + "'");
    if (!names.is_object()) return InvalidArgument("directory." + kind + " must be an object");
    for (const auto& [name, ids] : names.items()) {
      const std::string where = "directory." + kind + "[\"" + name + "\"]";
      if (!ids.is_array()) return InvalidArgument(where + " must be an array of ids");
      for (const json& id : ids) {
        if (!id.is_string()) return InvalidArgument(where + " must hold strings");
        out.Add(std::string(canonical), name, id.get<std::string>());
      }
    }
  }
  return out;
}

Result<json> ResolveMentionsJson(const json& input) {
  if (!input.is_object())
    return InvalidArgument("input must be an object {text, mentions?, directory?}");
  for (const auto& [key, value] : input.items()) {
    if (key != "text" && key != "mentions" && key != "directory") {
      return InvalidArgument("unknown field '" + key + "'");
    }
  }
  if (!input.contains("text") || !input["text"].is_string()) {
    return InvalidArgument("text must be a string");
  }
  std::vector<Mention> menu;
  if (input.contains("mentions")) {
    ENSEMBLE_ASSIGN_OR_RETURN(menu, MentionsFromJson(input["mentions"]));
  }
  ENSEMBLE_ASSIGN_OR_RETURN(MapMentionDirectory directory,
                            MentionDirectoryFromJson(input.value("directory", json())));
  ENSEMBLE_ASSIGN_OR_RETURN(
      ResolvedMentions resolved,
      ResolveMentions(input["text"].get_ref<const std::string&>(), menu, directory));
  return ResolvedMentionsToJson(resolved);
}

}  // namespace ensemble::core::refs
