#include "core/reminders/reminder.h"

#include <string>

#include "core/comments/comment.h"
#include "core/records/record_mutators.h"
#include "core/reminders/watcher_news.h"

namespace ensemble::core::reminders {

using nlohmann::json;

namespace {

const records::FieldSpec kReminderFields[] = {
    {.name = "text", .required = true, .trim = true, .max_chars = kMaxReminderChars},
    {.name = "at",
     .type = records::FieldType::kInt,
     .required = true,
     .min = 0,
     .max = kMaxReminderAtMs},
    {.name = "item_kind",
     .type = records::FieldType::kEnum,
     .nullable = true,
     .values = comments::kTargetKinds},
    {.name = "item", .type = records::FieldType::kId, .nullable = true},
    {.name = "dismissed", .type = records::FieldType::kInt, .min = 0, .max = 1},
};

const records::FieldSpec kWatcherFields[] = {
    {.name = "target_kind",
     .type = records::FieldType::kEnum,
     .required = true,
     .values = comments::kTargetKinds},
    {.name = "target", .type = records::FieldType::kId, .required = true},
    {.name = "condition", .trim = true, .max_chars = kMaxConditionChars},
};

bool Names(const json& args, const char* name) {
  return args.is_object() && args.contains(name) && !args[name].is_null();
}

// A create's link to a record, checked once its own fields are well formed.
Status CheckLink(sync::MutationContext& ctx, records::RecordKinds kinds,
                 const records::RecordKind& kind, const json& args, const char* kind_field,
                 const char* id_field) {
  // A missing field is CreateRecord's to name.
  if (!Names(args, kind_field) || !Names(args, id_field)) return Status::Ok();
  for (const char* f : {kind_field, id_field}) {
    if (Names(args, f) && !records::CheckField(*kind.FindField(f), args[f]).ok()) {
      return Status::Ok();  // CreateRecord says what is wrong.
    }
  }
  const std::string space = records::StringMember(args, "spaceId");
  if (space.empty()) return Status::Ok();
  return comments::CheckLiveTarget(ctx.db(), kinds, records::StringMember(args, kind_field),
                                   records::StringMember(args, id_field), space);
}

// INVALID_ARGUMENT when an update's fields name one of `kept`.
Status RefuseKept(const json& args, std::initializer_list<const char*> kept,
                  std::string_view message) {
  if (!args.is_object() || !args.contains("fields") || !args["fields"].is_object()) {
    return Status::Ok();
  }
  for (const char* f : kept) {
    if (args["fields"].contains(f)) return InvalidArgument(std::string(message));
  }
  return Status::Ok();
}

}  // namespace

const records::RecordKind kReminderRecordKind = {kReminderKind, kReminderTable, kReminderFields};
const records::RecordKind kWatcherRecordKind = {kWatcherKind, kWatcherTable, kWatcherFields};

const std::string_view kCreateReminderTablesSql =
    "CREATE TABLE reminders ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " text TEXT NOT NULL,"
    " \"at\" BIGINT NOT NULL,"
    " item_kind TEXT,"
    " item TEXT,"
    " dismissed BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX reminders_space_at ON reminders (space_id, \"at\");"
    "CREATE INDEX reminders_row_version ON reminders (row_version);"
    "CREATE TABLE watchers ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " target_kind TEXT NOT NULL,"
    " target TEXT NOT NULL,"
    " \"condition\" TEXT NOT NULL,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX watchers_space ON watchers (space_id, id);"
    "CREATE INDEX watchers_row_version ON watchers (row_version);";

Status CreateReminder(sync::MutationContext& ctx, records::RecordKinds kinds, const json& args) {
  if (Names(args, "item_kind") != Names(args, "item")) {
    return InvalidArgument("a reminder about a record names both item_kind and item");
  }
  if (Names(args, "item")) {
    ENSEMBLE_RETURN_IF_ERROR(CheckLink(ctx, kinds, kReminderRecordKind, args, "item_kind", "item"));
  }
  return records::CreateRecord(kReminderRecordKind, ctx, args);
}

Status UpdateReminder(sync::MutationContext& ctx, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(RefuseKept(args, {"item", "item_kind"},
                                      "a reminder keeps its record: item and item_kind cannot "
                                      "change (delete it and add another)"));
  return records::UpdateRecord(kReminderRecordKind, ctx, args);
}

Status CreateWatcher(sync::MutationContext& ctx, records::RecordKinds kinds, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(
      CheckLink(ctx, kinds, kWatcherRecordKind, args, "target_kind", "target"));
  return records::CreateRecord(kWatcherRecordKind, ctx, args);
}

Status UpdateWatcher(sync::MutationContext& ctx, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(RefuseKept(args, {"target", "target_kind"},
                                      "a watcher keeps its record: target and target_kind cannot "
                                      "change"));
  return records::UpdateRecord(kWatcherRecordKind, ctx, args);
}

void RegisterMutators(sync::MutatorRegistry& registry, records::RecordKinds kinds) {
  records::RegisterRecordMutators(kReminderRecordKind, registry);
  records::RegisterRecordMutators(kWatcherRecordKind, registry);
  registry.Register("reminder.create", [kinds](sync::MutationContext& ctx, const json& args) {
    return CreateReminder(ctx, kinds, args);
  });
  registry.Register("reminder.update", UpdateReminder);
  registry.Register("watcher.create", [kinds](sync::MutationContext& ctx, const json& args) {
    return CreateWatcher(ctx, kinds, args);
  });
  registry.Register("watcher.update", UpdateWatcher);
  registry.Register("watcher.seen", MarkWatcherSeen);
}

}  // namespace ensemble::core::reminders
