// An account's own model provider settings (provider, base URL, model and an
// encrypted API key): the rules for what may be saved, the model_credentials
// table and plain row access. The key arrives here already sealed by the
// server (server/credentials/); the core never sees it in the clear.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_ACCOUNTS_MODEL_CREDENTIALS_H_
#define ENSEMBLE_CORE_ACCOUNTS_MODEL_CREDENTIALS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::accounts {

inline constexpr size_t kMaxProviderChars = 64;
inline constexpr size_t kMaxBaseUrlChars = 2048;
inline constexpr size_t kMaxModelChars = 200;
// Provider keys run to a few hundred characters (Azure, JWT-style tokens).
inline constexpr size_t kMaxApiKeyChars = 4096;

// The model_credentials table, in the hub's migration list.
extern const store::Migration kCreateModelCredentialsTable;

// What a person saves; a key is never part of it (see ModelCredentialsRow).
struct ModelSettings {
  std::string provider;  // Explicit: "openai", "azure", "ollama", ...
  std::string base_url;  // http(s)://host[:port][/path], no user info.
  std::string model;
};

struct ModelCredentialsRow {
  std::string account_id;
  ModelSettings settings;
  std::optional<std::string> sealed_key;  // Ciphertext; nullopt: no key (a local model).
  int64_t updated_at = 0;
};

// OK when the settings are explicit and well formed; INVALID_ARGUMENT naming
// the field otherwise.
Status CheckModelSettings(const ModelSettings& settings);
// OK for a key of 1..kMaxApiKeyChars printable characters; the message never
// repeats any part of it.
Status CheckApiKey(std::string_view key);

Status PutModelCredentials(store::Database& db, const ModelCredentialsRow& row);
Result<std::optional<ModelCredentialsRow>> GetModelCredentials(store::Database& db,
                                                               std::string_view account_id);
// True when there was a row to delete.
Result<bool> DeleteModelCredentials(store::Database& db, std::string_view account_id);

}  // namespace ensemble::core::accounts

#endif  // ENSEMBLE_CORE_ACCOUNTS_MODEL_CREDENTIALS_H_
