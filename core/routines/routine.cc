#include "core/routines/routine.h"

#include <algorithm>
#include <string>

#include "core/records/record_mutators.h"

namespace ensemble::core::routines {

using nlohmann::json;

namespace {

const records::FieldSpec kFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = kMaxTitleChars},
    {.name = "instruction", .required = true, .max_chars = kMaxInstructionChars},
    {.name = "schedule",
     .type = records::FieldType::kJson,
     .required = true,
     .max_chars = kMaxScheduleBytes,
     .check = CheckSchedule},
    {.name = "paused", .type = records::FieldType::kInt, .min = 0, .max = 1},
};

bool IsTime(const std::string& t) {
  if (t.size() != 5 || t[2] != ':') return false;
  for (int i : {0, 1, 3, 4}) {
    if (t[i] < '0' || t[i] > '9') return false;
  }
  const int hour = (t[0] - '0') * 10 + (t[1] - '0');
  const int minute = (t[3] - '0') * 10 + (t[4] - '0');
  return hour < 24 && minute < 60;
}

template <size_t N>
bool OneOf(const std::string& s, const std::string_view (&values)[N]) {
  return std::find(std::begin(values), std::end(values), s) != std::end(values);
}

constexpr std::string_view kDayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                          "Friday", "Saturday", "Sunday"};

}  // namespace

const records::RecordKind kRoutineKind = {kKind, kTable, kFields};

const std::string_view kCreateRoutineTableSql =
    "CREATE TABLE routines ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " instruction TEXT NOT NULL,"
    " schedule TEXT NOT NULL,"
    " paused BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX routines_space ON routines (space_id, id);"
    "CREATE INDEX routines_row_version ON routines (row_version);";

const store::Migration kAddRoutineAuthors = {
    31, "routine authors", "ALTER TABLE routines ADD COLUMN author TEXT NOT NULL DEFAULT '';"};

Status StampRoutineAuthor(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const json& args) {
  if ((mutation != "routine.create" && mutation != "routine.update" &&
       mutation != "routine.restore") ||
      !args.is_object() || !args.contains("id") || !args["id"].is_string()) {
    return Status::Ok();
  }
  return db.Exec("UPDATE routines SET author = $1 WHERE id = $2",
                 {store::Value(account_id), store::Value(args["id"].get<std::string>())});
}

Status CheckSchedule(const json& s) {
  if (!s.is_object()) return InvalidArgument("schedule must be an object");
  for (const auto& [key, value] : s.items()) {
    if (key != "frequency" && key != "time" && key != "dayOfWeek" && key != "dayOfMonth") {
      return InvalidArgument("schedule has no field '" + key + "'");
    }
  }
  const std::string frequency = records::StringMember(s, "frequency");
  if (!OneOf(frequency, kFrequencies)) {
    return InvalidArgument("schedule.frequency must be daily, weekdays, weekly or monthly");
  }
  const std::string time = records::StringMember(s, "time");
  if (!IsTime(time)) return InvalidArgument("schedule.time must be HH:MM (00:00 to 23:59)");
  const bool weekly = frequency == "weekly";
  const bool monthly = frequency == "monthly";
  if (s.contains("dayOfWeek") != weekly) {
    return InvalidArgument(weekly ? "a weekly schedule needs dayOfWeek"
                                  : "only a weekly schedule takes dayOfWeek");
  }
  if (s.contains("dayOfMonth") != monthly) {
    return InvalidArgument(monthly ? "a monthly schedule needs dayOfMonth"
                                   : "only a monthly schedule takes dayOfMonth");
  }
  if (weekly &&
      !(s["dayOfWeek"].is_string() && OneOf(s["dayOfWeek"].get<std::string>(), kDaysOfWeek))) {
    return InvalidArgument("schedule.dayOfWeek must be one of mon, tue, wed, thu, fri, sat, sun");
  }
  if (monthly) {
    const json& d = s["dayOfMonth"];
    if (!d.is_number_integer() || d.get<int64_t>() < 1 || d.get<int64_t>() > 31) {
      return InvalidArgument("schedule.dayOfMonth must be a whole number from 1 to 31");
    }
  }
  return Status::Ok();
}

std::string ScheduleText(const json& s) {
  const std::string frequency = s.value("frequency", "");
  const std::string at = " at " + s.value("time", "");
  if (frequency == "weekly") {
    const std::string day = s.value("dayOfWeek", "");
    for (size_t i = 0; i < std::size(kDaysOfWeek); ++i) {
      if (kDaysOfWeek[i] == day) return "weekly on " + std::string(kDayNames[i]) + at;
    }
  }
  if (frequency == "monthly") {
    return "monthly on day " + std::to_string(s.value("dayOfMonth", 1)) + at;
  }
  return frequency + at;
}

void RegisterMutators(sync::MutatorRegistry& registry) {
  records::RegisterRecordMutators(kRoutineKind, registry);
}

}  // namespace ensemble::core::routines
