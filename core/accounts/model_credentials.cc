#include "core/accounts/model_credentials.h"

#include <string>

#include "core/text/utf8.h"

namespace ensemble::core::accounts {
namespace {

using store::Value;

bool IsPrintableAscii(std::string_view s) {
  for (unsigned char c : s) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

bool IsProviderChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

Status CheckBaseUrl(std::string_view url) {
  if (url.empty()) return InvalidArgument("baseUrl is required");
  if (url.size() > kMaxBaseUrlChars) {
    return InvalidArgument("baseUrl must be at most " + std::to_string(kMaxBaseUrlChars) +
                           " characters");
  }
  size_t host_start = 0;
  if (url.starts_with("https://")) {
    host_start = 8;
  } else if (url.starts_with("http://")) {
    host_start = 7;
  } else {
    return InvalidArgument("baseUrl must start with http:// or https://");
  }
  if (!IsPrintableAscii(url))
    return InvalidArgument("baseUrl must not contain spaces or control characters");
  size_t host_end = url.find_first_of("/?#", host_start);
  std::string_view authority =
      url.substr(host_start, host_end == std::string_view::npos ? std::string_view::npos
                                                                : host_end - host_start);
  if (authority.empty()) return InvalidArgument("baseUrl must name a host");
  // A key belongs in apiKey, where it is encrypted, never in the address.
  if (authority.find('@') != std::string_view::npos) {
    return InvalidArgument("baseUrl must not hold a user name or password; put the key in apiKey");
  }
  if (url.find_first_of("?#") != std::string_view::npos) {
    return InvalidArgument("baseUrl must not have a query or fragment; put the key in apiKey");
  }
  return Status::Ok();
}

}  // namespace

const store::Migration kCreateModelCredentialsTable = {
    11, "create model credentials",
    "CREATE TABLE model_credentials ("
    " account_id TEXT PRIMARY KEY, provider TEXT NOT NULL, base_url TEXT NOT NULL,"
    " model TEXT NOT NULL, sealed_key TEXT, updated_at BIGINT NOT NULL);"};

Status CheckModelSettings(const ModelSettings& s) {
  if (s.provider.empty()) return InvalidArgument("provider is required");
  if (s.provider.size() > kMaxProviderChars) {
    return InvalidArgument("provider must be at most " + std::to_string(kMaxProviderChars) +
                           " characters");
  }
  for (char c : s.provider) {
    if (!IsProviderChar(c)) {
      return InvalidArgument("provider must be a lower-case name such as openai, azure or ollama");
    }
  }
  ENSEMBLE_RETURN_IF_ERROR(CheckBaseUrl(s.base_url));
  if (s.model.empty()) return InvalidArgument("model is required");
  if (!text::IsValidUtf8(s.model) || text::CountCodePoints(s.model) > kMaxModelChars) {
    return InvalidArgument("model must be text of at most " + std::to_string(kMaxModelChars) +
                           " characters");
  }
  for (unsigned char c : s.model) {
    if (c < 0x20 || c == 0x7f) return InvalidArgument("model must not contain control characters");
  }
  return Status::Ok();
}

Status CheckApiKey(std::string_view key) {
  if (key.empty()) return InvalidArgument("apiKey must not be empty (send null to remove the key)");
  if (key.size() > kMaxApiKeyChars) {
    return InvalidArgument("apiKey must be at most " + std::to_string(kMaxApiKeyChars) +
                           " characters");
  }
  if (!IsPrintableAscii(key)) {
    return InvalidArgument("apiKey must be printable ASCII without spaces");
  }
  return Status::Ok();
}

Status PutModelCredentials(store::Database& db, const ModelCredentialsRow& row) {
  Value key = row.sealed_key ? Value(*row.sealed_key) : Value(store::Null());
  return db.Exec(
      "INSERT INTO model_credentials (account_id, provider, base_url, model, sealed_key, "
      "updated_at)"
      " VALUES ($1, $2, $3, $4, $5, $6)"
      " ON CONFLICT (account_id) DO UPDATE SET provider = excluded.provider,"
      " base_url = excluded.base_url, model = excluded.model, sealed_key = excluded.sealed_key,"
      " updated_at = excluded.updated_at",
      {Value(row.account_id), Value(row.settings.provider), Value(row.settings.base_url),
       Value(row.settings.model), key, Value(row.updated_at)});
}

Result<std::optional<ModelCredentialsRow>> GetModelCredentials(store::Database& db,
                                                               std::string_view account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT provider, base_url, model, sealed_key, updated_at FROM model_credentials"
               " WHERE account_id = $1",
               {Value(std::string(account_id))}));
  if (rows.empty()) return std::optional<ModelCredentialsRow>();
  const auto& r = rows.rows[0];
  ModelCredentialsRow row;
  row.account_id = std::string(account_id);
  row.settings = {store::AsText(r[0]), store::AsText(r[1]), store::AsText(r[2])};
  if (!store::IsNull(r[3])) row.sealed_key = store::AsText(r[3]);
  row.updated_at = store::AsInt(r[4]);
  return std::optional<ModelCredentialsRow>(std::move(row));
}

Result<bool> DeleteModelCredentials(store::Database& db, std::string_view account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("DELETE FROM model_credentials WHERE account_id = $1 RETURNING account_id",
               {Value(std::string(account_id))}));
  return !rows.empty();
}

}  // namespace ensemble::core::accounts
