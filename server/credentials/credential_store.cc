#include "server/credentials/credential_store.h"

#include <utility>

#include "core/net/url_origin.h"

namespace ensemble::server::credentials {

using core::Result;
using core::Status;
using core::accounts::ModelCredentialsRow;
using core::accounts::ModelSettings;

std::string_view CredentialSourceName(CredentialSource source) {
  return source == CredentialSource::kSaved ? "saved" : "environment";
}

CredentialStore::CredentialStore(const SecretBox& box, OperatorModel operator_model,
                                 bool accounts_mode, bool private_addresses)
    : box_(box),
      operator_model_(std::move(operator_model)),
      accounts_mode_(accounts_mode),
      private_addresses_(!accounts_mode || private_addresses) {}

Status CredentialStore::Save(core::store::Database& db, const std::string& account_id,
                             const ModelSettings& settings, KeyChange key_change,
                             std::string_view new_key, int64_t now_ms) const {
  ENSEMBLE_RETURN_IF_ERROR(core::accounts::CheckModelSettings(settings));
  if (key_change == KeyChange::kReplace) {
    ENSEMBLE_RETURN_IF_ERROR(core::accounts::CheckApiKey(new_key));
  }
  ModelCredentialsRow row;
  row.account_id = account_id;
  row.settings = settings;
  row.updated_at = now_ms;
  switch (key_change) {
    case KeyChange::kReplace:
      row.sealed_key = box_.Seal(new_key);
      break;
    case KeyChange::kRemove:
      break;
    case KeyChange::kKeep: {
      ENSEMBLE_ASSIGN_OR_RETURN(std::optional<ModelCredentialsRow> old,
                                core::accounts::GetModelCredentials(db, account_id));
      // The key was given to one origin: a base URL elsewhere (another
      // host, port or scheme) does not take it along, or whoever changed
      // the address would receive the key with the next call.
      if (old &&
          core::net::UrlOrigin(old->settings.base_url) == core::net::UrlOrigin(settings.base_url)) {
        row.sealed_key = old->sealed_key;
      }
      break;
    }
  }
  return core::accounts::PutModelCredentials(db, row);
}

Result<std::optional<ModelCredentialsView>> CredentialStore::Describe(
    core::store::Database& db, const std::string& account_id) const {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<ModelCredentialsRow> row,
                            core::accounts::GetModelCredentials(db, account_id));
  if (row) {
    return std::optional<ModelCredentialsView>(
        ModelCredentialsView{row->settings, row->sealed_key.has_value(), CredentialSource::kSaved});
  }
  if (std::optional<ModelCredentials> op = OperatorCredentials()) {
    return std::optional<ModelCredentialsView>(
        ModelCredentialsView{op->settings, !op->api_key.empty(), CredentialSource::kOperator});
  }
  return std::optional<ModelCredentialsView>();
}

Result<bool> CredentialStore::Remove(core::store::Database& db,
                                     const std::string& account_id) const {
  return core::accounts::DeleteModelCredentials(db, account_id);
}

Result<std::optional<ModelCredentials>> CredentialStore::ResolveModelCredentials(
    core::store::Database& db, const std::string& account_id) const {
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<ModelCredentialsRow> row,
                            core::accounts::GetModelCredentials(db, account_id));
  if (row) {
    ModelCredentials out{row->settings, "", CredentialSource::kSaved, !private_addresses_};
    if (row->sealed_key) {
      ENSEMBLE_ASSIGN_OR_RETURN(out.api_key, box_.Open(*row->sealed_key));
    }
    return std::optional<ModelCredentials>(std::move(out));
  }
  return OperatorCredentials();
}

std::optional<ModelCredentials> CredentialStore::OperatorCredentials() const {
  // A hosted account never borrows the operator's keys.
  if (accounts_mode_ || !operator_model_.configured()) return std::nullopt;
  return ModelCredentials{
      {operator_model_.provider, operator_model_.base_url, operator_model_.model},
      operator_model_.api_key,
      CredentialSource::kOperator};
}

}  // namespace ensemble::server::credentials
