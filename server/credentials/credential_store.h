// CredentialStore: each account's model provider credentials (provider, base
// URL, model and an API key sealed by the SecretBox), and the resolver the
// assistant's turn loop asks for the credentials of a call.
//
// A key goes in once and never comes out through a route: Describe tells only
// whether there is one. ResolveModelCredentials is the one place a key is
// opened, for the call it is made for. The operator's environment model
// (Config::operator_model) serves only the single-person local mode; an
// account on a server in accounts mode never borrows it (spec 000 §5).
//
// Thread-safety: immutable after construction; each call uses the Database
// it is given.

#ifndef ENSEMBLE_SERVER_CREDENTIALS_CREDENTIAL_STORE_H_
#define ENSEMBLE_SERVER_CREDENTIALS_CREDENTIAL_STORE_H_

#include <optional>
#include <string>
#include <string_view>

#include "core/accounts/model_credentials.h"
#include "core/base/status.h"
#include "core/store/database.h"
#include "server/config.h"
#include "server/credentials/secret_box.h"

namespace ensemble::server::credentials {

// What a PUT does with the saved key. kKeep keeps it only while the base
// URL's origin stays the same; a base URL on another origin drops it, and the
// person enters it again.
enum class KeyChange { kKeep, kReplace, kRemove };

// Where resolved credentials came from.
enum class CredentialSource { kSaved, kOperator };

// What may be shown about an account's model: never the key.
struct ModelCredentialsView {
  core::accounts::ModelSettings settings;
  bool has_key = false;
  CredentialSource source = CredentialSource::kSaved;
};

// What a model call needs. Holds the key in the clear: keep it in memory
// only, for the call.
struct ModelCredentials {
  core::accounts::ModelSettings settings;
  std::string api_key;  // Empty: none (a local model server).
  CredentialSource source = CredentialSource::kSaved;
  // A person's own base URL on a shared server (accounts mode, unless
  // ENSEMBLE_PRIVATE_LINKS=on): reached only at public addresses
  // (server/outbound/outbound_guard.h). The operator's model, and anything
  // in local mode, may be on the private network.
  bool public_addresses_only = false;
};

std::string_view CredentialSourceName(CredentialSource source);

class CredentialStore {
 public:
  // `box` must outlive the store. `accounts_mode` false: local mode, where
  // `operator_model` (if configured) backs an account with nothing saved.
  // `private_addresses`: whether a person's own base URL may reach loopback
  // and private addresses (ENSEMBLE_PRIVATE_LINKS; always so in local mode).
  CredentialStore(const SecretBox& box, OperatorModel operator_model, bool accounts_mode,
                  bool private_addresses = true);

  // Saves `settings` for `account_id` (checked first: INVALID_ARGUMENT),
  // with the key kept, replaced by `new_key` (sealed) or removed.
  core::Status Save(core::store::Database& db, const std::string& account_id,
                    const core::accounts::ModelSettings& settings, KeyChange key_change,
                    std::string_view new_key, int64_t now_ms) const;
  // What the settings screen shows: the saved settings, else (local mode)
  // the operator's; nullopt when neither.
  core::Result<std::optional<ModelCredentialsView>> Describe(core::store::Database& db,
                                                             const std::string& account_id) const;
  // True when saved settings were removed.
  core::Result<bool> Remove(core::store::Database& db, const std::string& account_id) const;

  // The credentials a model call for `account_id` uses: its saved ones
  // (key opened; DECRYPT_FAILED if it cannot be), else, only in local mode,
  // the operator's environment model; nullopt when there are none (the
  // caller falls back to the local planner).
  core::Result<std::optional<ModelCredentials>> ResolveModelCredentials(
      core::store::Database& db, const std::string& account_id) const;

 private:
  std::optional<ModelCredentials> OperatorCredentials() const;

  const SecretBox& box_;
  const OperatorModel operator_model_;
  const bool accounts_mode_;
  const bool private_addresses_;
};

}  // namespace ensemble::server::credentials

#endif  // ENSEMBLE_SERVER_CREDENTIALS_CREDENTIAL_STORE_H_
