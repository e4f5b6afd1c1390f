// libFuzzer target for the sync messages the core parses from the network:
// a push request on the server side, push and pull responses on the client
// side. Whatever the bytes, nothing may crash, leak or trip a sanitizer, and a
// request the server refuses must change nothing.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/hub/hub.h"
#include "core/platform/env.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/sync/server_sync.h"

namespace {

using ensemble::core::store::AsInt;
using ensemble::core::store::Database;
namespace platform = ensemble::core::platform;

// The replica takes its time and ids from an Env; a fuzz run must depend on
// neither the time nor chance, so the clock stands still and the "random"
// bytes count up, so ids stay unique within a run.
class StillClock : public platform::Clock {
 public:
  int64_t NowMillis() const override { return 1'764'000'000'000; }
};
class CountingRandom : public platform::Random {
 public:
  void Fill(uint8_t* out, size_t size) override {
    ++calls_;  // Each call's bytes differ from every other call's.
    for (size_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(calls_ >> (8 * (i % 8)));
  }

 private:
  uint64_t calls_ = 0;
};
class SilentLogger : public platform::Logger {
 public:
  void Log(platform::LogLevel, std::string_view) override {}
};

int64_t Count(Database& db, const char* sql) { return AsInt((*db.Query(sql)).rows[0][0]); }

void FuzzPush(const nlohmann::json& request) {
  auto db = std::move(ensemble::core::store::SqliteDatabase::Open(":memory:")).value();
  if (!ensemble::core::hub::Migrate(*db).ok()) std::abort();
  ensemble::core::sync::ServerSync server(ensemble::core::hub::Config());
  auto response = server.Push(*db, request);
  if (!response.ok() && (Count(*db, "SELECT COUNT(*) FROM tasks") != 0 ||
                         Count(*db, "SELECT COUNT(*) FROM sync_clients") != 0)) {
    std::abort();  // A refused request changed something.
  }
}

void FuzzClient(const nlohmann::json& response, bool pull) {
  StillClock clock;
  CountingRandom random;
  SilentLogger logger;
  auto db = std::move(ensemble::core::store::SqliteDatabase::Open(":memory:")).value();
  if (!ensemble::core::hub::Migrate(*db).ok()) std::abort();
  auto replica = std::move(ensemble::core::sync::ClientReplica::Open(
                               *db, {&clock, &random, &logger}, ensemble::core::hub::Config()))
                     .value();
  (void)replica->Mutate(
      "task.create",
      {{"id", "01JB0000000000000000000001"}, {"spaceId", "personal"}, {"title", "pending"}});
  if (pull) {
    (void)replica->ApplyPull(response);
  } else {
    (void)replica->ApplyPushResponse(response);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  auto json = nlohmann::json::parse(data + 1, data + size, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  try {
    switch (data[0] % 3) {
      case 0:
        FuzzPush(json);
        break;
      case 1:
        FuzzClient(json, /*pull=*/true);
        break;
      default:
        FuzzClient(json, /*pull=*/false);
        break;
    }
  } catch (const nlohmann::json::exception&) {
    // The core converts third-party exceptions at its edges; one escaping here
    // is a bug the fuzzer must report.
    std::abort();
  }
  return 0;
}
