// `tools/ensemble calendar expand FILE... --from ISO --to ISO` and
// `tools/ensemble calendar merge FILE... --from ISO --to ISO`: the core's
// iCalendar expansion (every occurrence overlapping the window, one copy per
// calendar) and cross-calendar dedupe, as JSON (core/calendar/ics_json.h).

#include <iostream>
#include <string>
#include <vector>

#include "core/calendar/ics_calendar.h"
#include "core/calendar/ics_json.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

namespace calendar = ensemble::core::calendar;

constexpr char kUsage[] =
    "  calendar expand FILE... --from ISO --to ISO   every occurrence in the window, per calendar\n"
    "  calendar merge FILE... --from ISO --to ISO    the deduped events with their sources\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble calendar: " << message << "\n";
  return 1;
}

int UsageError(const std::string& message) {
  std::cerr << "ensemble calendar: " << message << "\nusage:\n" << kUsage;
  return 2;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int Run(const std::vector<std::string>& args) {
  if (args.empty() || (args[0] != "expand" && args[0] != "merge")) {
    return UsageError("expected expand or merge");
  }
  std::vector<std::string> paths;
  std::string from, to;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--from" || args[i] == "--to") {
      if (i + 1 >= args.size()) return UsageError(args[i] + " needs a value");
      (args[i] == "--from" ? from : to) = args[i + 1];
      ++i;
    } else if (args[i].rfind("--", 0) == 0) {
      return UsageError("unknown option " + args[i]);
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.empty()) return UsageError("no calendar file given");
  if (from.empty() || to.empty()) return UsageError("--from and --to are required");
  auto from_utc = calendar::ParseIsoInstant(from);
  if (!from_utc.ok()) return Fail("--from: " + from_utc.status().message());
  auto to_utc = calendar::ParseIsoInstant(to);
  if (!to_utc.ok()) return Fail("--to: " + to_utc.status().message());
  if (*to_utc <= *from_utc) return Fail("--to must be after --from");

  std::vector<calendar::IcsFile> files;
  for (const std::string& path : paths) {
    calendar::IcsFile file;
    std::string error;
    if (!ReadFile(path, &file.text, &error)) return Fail(error);
    file.name = BaseName(path);
    files.push_back(std::move(file));
  }
  const calendar::TimeWindow window{*from_utc, *to_utc};
  auto result = args[0] == "expand" ? calendar::ExpandIcsFilesJson(files, window)
                                    : calendar::MergeIcsFilesJson(files, window);
  if (!result.ok()) return Fail(result.status().message() + " (" + result.status().code() + ")");
  for (const auto& w : (*result)["warnings"]) {
    std::cerr << "warning: " << w["calendar"].get<std::string>() << ": "
              << w["message"].get<std::string>() << "\n";
  }
  for (const auto& name : (*result)["truncated"]) {
    std::cerr << "warning: " << name.get<std::string>() << ": more than "
              << calendar::kMaxEventsPerWindow << " events in the window; the earliest are kept\n";
  }
  std::cout << (*result)["events"].dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
  return 0;
}

const CommandRegistrar kRegistrar("calendar", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
