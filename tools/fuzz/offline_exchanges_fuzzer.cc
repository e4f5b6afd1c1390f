// Fuzzes the offline exchanges upload (core/assistant/offline_exchanges.h),
// the body a browser sends once it reaches the server again. Whatever comes
// in: no crash; a body that parses is saved whole (two messages for each
// new exchange) and saving it again adds nothing; one that does not parse is
// INVALID_ARGUMENT and saves nothing.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/conversation_store.h"
#include "core/assistant/offline_exchanges.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace {

namespace assistant = ensemble::core::assistant;
namespace store = ensemble::core::store;

store::Database& Db() {
  static std::unique_ptr<store::SqliteDatabase> db = [] {
    auto opened = store::SqliteDatabase::Open(":memory:");
    if (!opened.ok() || !ensemble::core::hub::Migrate(**opened).ok() ||
        !assistant::CreateConversation(**opened, "c", "space", "me", "", 1).ok()) {
      std::abort();
    }
    return std::move(*opened);
  }();
  return *db;
}

size_t MessageCount() {
  auto rows = Db().Query("SELECT COUNT(*) FROM assistant_messages", {});
  if (!rows.ok()) std::abort();
  return static_cast<size_t>(store::AsInt(rows->rows[0][0]));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json body = nlohmann::json::parse(
      reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size, nullptr,
      /*allow_exceptions=*/false);
  if (body.is_discarded()) return 0;
  const size_t before = MessageCount();
  auto exchanges = assistant::ParseOfflineExchanges(body);
  if (!exchanges.ok()) {
    if (exchanges.status().code() != ensemble::core::codes::kInvalidArgument) std::abort();
    return 0;
  }
  auto saved = assistant::SaveOfflineExchanges(Db(), "c", *exchanges, 5000);
  if (!saved.ok() || MessageCount() != before + 2 * *saved) std::abort();
  auto again = assistant::SaveOfflineExchanges(Db(), "c", *exchanges, 5000);
  if (!again.ok() || *again != 0 || MessageCount() != before + 2 * *saved) std::abort();
  return 0;
}
