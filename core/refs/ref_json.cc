#include "core/refs/ref_json.h"

#include <string>

#include "core/base/id.h"

namespace ensemble::core::refs {
namespace {

bool IsText(const nlohmann::json& object, const char* key) {
  return object.contains(key) && object[key].is_string() &&
         !object[key].get_ref<const std::string&>().empty();
}

}  // namespace

Result<RefSet> RefSetFromJson(const nlohmann::json& refs) {
  if (!refs.is_array())
    return InvalidArgument("refs must be an array of {kind, id, label, detail?}");
  if (refs.size() > RefSet::kMaxRefs) {
    return InvalidArgument("at most " + std::to_string(RefSet::kMaxRefs) + " refs");
  }
  RefSet out;
  for (size_t i = 0; i < refs.size(); ++i) {
    const nlohmann::json& r = refs[i];
    const std::string where = "refs[" + std::to_string(i) + "]";
    if (!r.is_object()) return InvalidArgument(where + " must be an object");
    for (const char* key : {"kind", "id", "label"}) {
      if (!IsText(r, key))
        return InvalidArgument(where + "." + key + " must be a non-empty string");
    }
    if (r.contains("detail") && !r["detail"].is_string() && !r["detail"].is_null()) {
      return InvalidArgument(where + ".detail must be a string");
    }
    const std::string& id = r["id"].get_ref<const std::string&>();
    if (!IsValidId(id)) return InvalidArgument(where + ".id is not a record id: " + id);
    Ref ref{r["kind"].get<std::string>(), id, r["label"].get<std::string>(),
            r.contains("detail") && r["detail"].is_string() ? r["detail"].get<std::string>() : ""};
    if (!out.Find(id)) out.Add(std::move(ref));
  }
  return out;
}

Result<FormatOptions> FormatOptionsFromJson(const nlohmann::json& options) {
  FormatOptions out;
  if (options.is_null()) return out;
  if (!options.is_object()) return InvalidArgument("options must be an object {plain?, keepIds?}");
  for (const auto& [key, value] : options.items()) {
    if (key != "plain" && key != "keepIds") return InvalidArgument("unknown option '" + key + "'");
    if (!value.is_boolean()) return InvalidArgument("option " + key + " must be true or false");
    (key == "plain" ? out.plain : out.keep_ids) = value.get<bool>();
  }
  return out;
}

}  // namespace ensemble::core::refs
