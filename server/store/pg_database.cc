#include "server/store/pg_database.h"

#include <libpq-fe.h>

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <variant>

namespace ensemble::server::store {
namespace {

using core::Result;
using core::Status;
using core::codes::kStorage;
using core::store::Null;
using core::store::Rows;
using core::store::Value;

// Built-in type OIDs (catalog/pg_type_d.h, which needs the server headers).
// They are fixed by PostgreSQL and never change between versions.
constexpr Oid kBoolOid = 16;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kFloat4Oid = 700;
constexpr Oid kFloat8Oid = 701;
constexpr Oid kNumericOid = 1700;
constexpr Oid kUnknownOid = 0;  // Let the server infer the parameter's type.

// Results come back as text, so every type is read the same way.
constexpr int kTextFormat = 0;

// Server-side names of prepared statements are this prefix and a counter.
constexpr char kStatementNamePrefix[] = "ensemble_";

// SQLSTATEs after which a cached statement is stale rather than wrong: the
// server no longer has it (someone ran DEALLOCATE or DISCARD), or a schema
// change altered the columns it returns ("cached plan must not change result
// type", feature_not_supported).
constexpr std::string_view kInvalidStatementName = "26000";
constexpr std::string_view kFeatureNotSupported = "0A000";

// How a parameter's type is written in a cache key: the same SQL bound with
// other types is another prepared statement, since PREPARE fixes the types.
constexpr char kKeyInt = 'i';
constexpr char kKeyDouble = 'd';
constexpr char kKeyUnknown = 'u';  // Text and NULL: the server infers both.

// libpq messages end with a newline; a Status message is one line.
std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Ignores NOTICEs ("relation already exists, skipping"), which libpq would
// otherwise print to stderr outside the logger.
void IgnoreNotice(void*, const char*) {}

bool IsStaleStatement(const PGresult* result) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  return state && (state == kInvalidStatementName || state == kFeatureNotSupported);
}

std::string DoubleToText(double d) {
  char buf[64];
  // Shortest form that reads back to the same double.
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  return std::string(buf, end);
}

Result<Value> ParseValue(Oid type, const char* text, int length) {
  const char* end = text + length;
  switch (type) {
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid: {
      int64_t n = 0;
      auto [p, ec] = std::from_chars(text, end, n);
      if (ec != std::errc() || p != end) break;
      return Value(n);
    }
    case kFloat4Oid:
    case kFloat8Oid:
    case kNumericOid: {
      double d = 0;
      auto [p, ec] = std::from_chars(text, end, d);
      // A NUMERIC too large for a double is out of range; it is not a real
      // value in this product's schema.
      if (ec != std::errc() || p != end) break;
      return Value(d);
    }
    case kBoolOid:
      return Value(static_cast<int64_t>(length > 0 && text[0] == 't'));
    default:
      return Value(std::string(text, length));
  }
  return Status(kStorage, "cannot read '" + std::string(text, length) + "' as a number");
}

}  // namespace

Result<std::unique_ptr<PgDatabase>> PgDatabase::Open(const std::string& url) {
  // The URL is expanded in place of dbname; connect_timeout comes first so a
  // value in the URL overrides the default.
  const std::string timeout = std::to_string(kPgConnectTimeoutSeconds);
  const char* keys[] = {"connect_timeout", "client_encoding", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), "UTF8", url.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (!conn) return Status(kStorage, "cannot connect to PostgreSQL: out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    Status st(kStorage, "cannot connect to PostgreSQL: " + Trimmed(PQerrorMessage(conn)));
    PQfinish(conn);
    return st;
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  return std::unique_ptr<PgDatabase>(new PgDatabase(conn));
}

PgDatabase::~PgDatabase() { PQfinish(conn_); }

Status PgDatabase::Error(std::string_view what, const PGresult* result) const {
  // The primary message and SQLSTATE make one readable line; the full text
  // adds a multi-line excerpt of the statement.
  const char* primary = result ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  if (!primary) {
    const char* message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
    return Status(kStorage, std::string(what) + ": " + Trimmed(message));
  }
  const char* sqlstate = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  return Status(kStorage, std::string(what) + ": " + primary +
                              (sqlstate ? std::string(" (SQLSTATE ") + sqlstate + ")" : ""));
}

Status PgDatabase::EnsureConnected() {
  if (PQstatus(conn_) == CONNECTION_OK) return Status::Ok();
  if (in_transaction_) return Status(kStorage, "the connection to PostgreSQL was lost");
  PQreset(conn_);
  // A new session: the server has none of the statements prepared before.
  ClearPrepared();
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Status(kStorage, "cannot reconnect to PostgreSQL: " + Trimmed(PQerrorMessage(conn_)));
  }
  return Status::Ok();
}

std::string PgDatabase::PrepareCached(const std::string& key, const std::string& sql,
                                      const std::vector<Oid>& types, PGresult** failure) {
  *failure = nullptr;
  if (auto it = prepared_index_.find(key); it != prepared_index_.end()) {
    prepared_.splice(prepared_.begin(), prepared_, it->second);
    return it->second->name;
  }
  std::string name = kStatementNamePrefix + std::to_string(++next_statement_id_);
  PGresult* res =
      PQprepare(conn_, name.c_str(), sql.c_str(), static_cast<int>(types.size()), types.data());
  if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
    *failure = res;
    return "";
  }
  PQclear(res);
  prepared_.push_front(Prepared{key, name});
  prepared_index_.emplace(key, prepared_.begin());
  if (prepared_.size() > kPgMaxPreparedStatements) {
    Forget(prepared_.back().key);
    DeallocateEvicted();
  }
  return name;
}

void PgDatabase::Forget(const std::string& key) {
  auto it = prepared_index_.find(key);
  if (it == prepared_index_.end()) return;
  auto entry = it->second;
  prepared_index_.erase(it);
  evicted_.push_back(std::move(entry->name));
  prepared_.erase(entry);
}

void PgDatabase::DeallocateEvicted() {
  if (evicted_.empty() || PQtransactionStatus(conn_) != PQTRANS_IDLE) return;
  for (const std::string& name : evicted_) {
    // Names are ours (prefix and digits), so they need no quoting. A failure
    // means the server no longer has the statement: nothing left to free.
    ResultPtr res(PQexec(conn_, ("DEALLOCATE " + name).c_str()));
  }
  evicted_.clear();
}

void PgDatabase::ClearPrepared() {
  prepared_.clear();
  prepared_index_.clear();
  evicted_.clear();
}

PgDatabase::Bound PgDatabase::Bind(std::string_view sql, const std::vector<Value>& params,
                                   bool prepare) {
  Bound b;
  b.text = std::string(sql);
  b.prepare = prepare;
  b.texts.resize(params.size());
  b.is_null.assign(params.size(), false);
  b.types.assign(params.size(), kUnknownOid);
  b.key = b.text;
  b.key.push_back('\0');  // SQL text never holds a NUL; the types follow it.
  for (size_t i = 0; i < params.size(); ++i) {
    const Value& v = params[i];
    if (const auto* n = std::get_if<int64_t>(&v)) {
      b.texts[i] = std::to_string(*n);
      b.types[i] = kInt8Oid;
      b.key.push_back(kKeyInt);
    } else if (const auto* d = std::get_if<double>(&v)) {
      b.texts[i] = DoubleToText(*d);
      b.types[i] = kFloat8Oid;
      b.key.push_back(kKeyDouble);
    } else if (const auto* str = std::get_if<std::string>(&v)) {
      b.texts[i] = *str;
      b.key.push_back(kKeyUnknown);
    } else {
      b.key.push_back(kKeyUnknown);
      b.is_null[i] = true;
    }
  }
  return b;
}

std::vector<const char*> PgDatabase::Bound::Values() const {
  std::vector<const char*> out(texts.size(), nullptr);
  for (size_t i = 0; i < texts.size(); ++i) {
    if (!is_null[i]) out[i] = texts[i].c_str();
  }
  return out;
}

void PgDatabase::ResultDeleter::operator()(PGresult* r) const { PQclear(r); }

Result<Rows> PgDatabase::Query(std::string_view sql, const std::vector<Value>& params) {
  ENSEMBLE_RETURN_IF_ERROR(EnsureConnected());
  if (!deferred_.empty()) {
    // Held statements travel with this one: one round trip for all.
    std::vector<Bound> batch = std::move(deferred_);
    deferred_.clear();
    batch.push_back(Bind(sql, params, /*prepare=*/true));
    ENSEMBLE_ASSIGN_OR_RETURN(ResultPtr res, RunPipeline(batch));
    return ToRows(res.get());
  }
  DeallocateEvicted();
  Bound b = Bind(sql, params, /*prepare=*/true);
  const std::vector<const char*> values = b.Values();
  const int nparams = static_cast<int>(params.size());
  ResultPtr res;
  // A stale statement is prepared again and run once more, but only outside a
  // transaction: inside one its failure has aborted the transaction.
  for (bool retried = false;; retried = true) {
    PGresult* prepare_failure = nullptr;
    const std::string name = PrepareCached(b.key, b.text, b.types, &prepare_failure);
    if (name.empty()) {
      ResultPtr failed(prepare_failure);
      // In a transaction the failed PREPARE has aborted it, and its error is
      // the statement's own (PREPARE parses and analyzes it like execution).
      if (PQtransactionStatus(conn_) != PQTRANS_IDLE) {
        return Error("statement failed", failed.get());
      }
      res.reset(PQexecParams(conn_, b.text.c_str(), nparams, b.types.data(), values.data(),
                             /*paramLengths=*/nullptr, /*paramFormats=*/nullptr, kTextFormat));
      break;
    }
    res.reset(PQexecPrepared(conn_, name.c_str(), nparams, values.data(),
                             /*paramLengths=*/nullptr, /*paramFormats=*/nullptr, kTextFormat));
    if (!res || PQresultStatus(res.get()) != PGRES_FATAL_ERROR || !IsStaleStatement(res.get())) {
      break;
    }
    Forget(b.key);
    if (retried || PQtransactionStatus(conn_) != PQTRANS_IDLE) break;
  }
  if (!res) return Error("statement failed", nullptr);
  ExecStatusType status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return Error("statement failed", res.get());
  }
  return ToRows(res.get());
}

Result<Rows> PgDatabase::ToRows(const PGresult* res) {
  if (PQresultStatus(res) == PGRES_COMMAND_OK) return Rows{};
  Rows out;
  const int ncol = PQnfields(res);
  const int nrow = PQntuples(res);
  out.columns.reserve(ncol);
  for (int c = 0; c < ncol; ++c) out.columns.emplace_back(PQfname(res, c));
  out.rows.reserve(nrow);
  for (int r = 0; r < nrow; ++r) {
    std::vector<Value>& row = out.rows.emplace_back();
    row.reserve(ncol);
    for (int c = 0; c < ncol; ++c) {
      if (PQgetisnull(res, r, c)) {
        row.emplace_back(Null{});
        continue;
      }
      ENSEMBLE_ASSIGN_OR_RETURN(
          Value v, ParseValue(PQftype(res, c), PQgetvalue(res, r, c), PQgetlength(res, r, c)));
      row.push_back(std::move(v));
    }
  }
  return out;
}

Status PgDatabase::ExecDeferred(std::string_view sql, const std::vector<Value>& params) {
  // Outside a transaction a held statement's failure would surface in an
  // unrelated one; there it runs at once.
  if (!in_transaction_) return Exec(sql, params);
  deferred_.push_back(Bind(sql, params, /*prepare=*/!params.empty()));
  if (deferred_.size() < kPgMaxDeferredStatements) return Status::Ok();
  std::vector<Bound> batch = std::move(deferred_);
  deferred_.clear();
  return RunPipeline(batch).status();
}

Result<PgDatabase::ResultPtr> PgDatabase::RunPipeline(std::vector<Bound>& batch) {
  // Prepared first (PQprepare cannot run in pipeline mode). Statements without
  // parameters (SAVEPOINT, COMMIT) are sent unnamed: utility statements
  // cannot all be prepared, and they are cheap to parse.
  std::vector<std::string> names(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].prepare) continue;
    PGresult* failure = nullptr;
    names[i] = PrepareCached(batch[i].key, batch[i].text, batch[i].types, &failure);
    if (names[i].empty()) {
      ResultPtr failed(failure);
      return Error("statement failed", failed.get());
    }
  }
  if (PQenterPipelineMode(conn_) != 1) return Error("cannot start a pipeline", nullptr);
  bool sent = true;
  for (size_t i = 0; i < batch.size() && sent; ++i) {
    const Bound& b = batch[i];
    const std::vector<const char*> values = b.Values();
    const int n = static_cast<int>(values.size());
    sent = names[i].empty() ? PQsendQueryParams(conn_, b.text.c_str(), n, b.types.data(),
                                                values.data(), nullptr, nullptr, kTextFormat) == 1
                            : PQsendQueryPrepared(conn_, names[i].c_str(), n, values.data(),
                                                  nullptr, nullptr, kTextFormat) == 1;
  }
  if (!sent || PQpipelineSync(conn_) != 1) {
    Status st = Error("statement failed", nullptr);
    PQexitPipelineMode(conn_);  // Fails while results are pending; the connection is bad then.
    return st;
  }
  // Each statement's result is followed by a null; then the sync's result.
  // After a failure the rest come back PGRES_PIPELINE_ABORTED.
  Status first_failure;
  ResultPtr last;
  for (size_t i = 0; i < batch.size(); ++i) {
    ResultPtr res(PQgetResult(conn_));
    if (!res) {
      if (first_failure.ok()) first_failure = Error("statement failed", nullptr);
      break;  // The connection broke.
    }
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
    const ExecStatusType status = PQresultStatus(res.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && first_failure.ok()) {
      if (IsStaleStatement(res.get())) Forget(batch[i].key);
      first_failure = Error("statement failed", res.get());
    }
    if (i + 1 == batch.size()) last = std::move(res);
  }
  // Drain up to the sync point; a broken connection ends with nulls.
  for (int nulls = 0; nulls < 2;) {
    ResultPtr res(PQgetResult(conn_));
    if (!res) {
      if (PQstatus(conn_) != CONNECTION_OK) break;
      ++nulls;
      continue;
    }
    if (PQresultStatus(res.get()) == PGRES_PIPELINE_SYNC) break;
  }
  PQexitPipelineMode(conn_);
  if (!first_failure.ok()) return first_failure;
  if (!last) return Error("statement failed", nullptr);
  return last;
}

Status PgDatabase::ExecScript(std::string_view sql) {
  ENSEMBLE_RETURN_IF_ERROR(EnsureConnected());
  if (!deferred_.empty()) {
    // A script may hold several statements, so it cannot join the pipeline.
    std::vector<Bound> batch = std::move(deferred_);
    deferred_.clear();
    ENSEMBLE_RETURN_IF_ERROR(RunPipeline(batch).status());
  }
  const std::string text(sql);
  // PQexec runs several statements; it stops at the first error and returns it.
  ResultPtr res(PQexec(conn_, text.c_str()));
  if (!res) return Error("statement failed", nullptr);
  ExecStatusType status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return Error("statement failed", res.get());
  }
  return Status::Ok();
}

Status PgDatabase::Begin(core::store::Durability durability) {
  ENSEMBLE_RETURN_IF_ERROR(EnsureConnected());
  DeallocateEvicted();
  // Held, like the statements after it: BEGIN costs no round trip of its own.
  deferred_.clear();
  deferred_.push_back(Bind("BEGIN", {}, /*prepare=*/false));
  if (durability == core::store::Durability::kRelaxed) {
    // For this transaction only: COMMIT returns before the WAL is flushed.
    deferred_.push_back(Bind("SET LOCAL synchronous_commit = off", {}, /*prepare=*/false));
  }
  in_transaction_ = true;
  return Status::Ok();
}

Status PgDatabase::Commit() {
  // Whatever happens, the transaction is over: a failed COMMIT rolls back.
  in_transaction_ = false;
  std::vector<Bound> batch = std::move(deferred_);
  deferred_.clear();
  // Never reconnect here: COMMIT on a fresh connection would "succeed" with
  // nothing to commit.
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Status(kStorage, "commit failed: the connection to PostgreSQL was lost");
  }
  batch.push_back(Bind("COMMIT", {}, /*prepare=*/false));
  auto res = RunPipeline(batch);
  if (!res.ok()) return Status(kStorage, "commit failed: " + res.status().message());
  // COMMIT of a transaction that hit an error "succeeds" by rolling back; the
  // caller must not believe its writes were kept.
  if (std::string_view(PQcmdStatus(res->get())) == "ROLLBACK") {
    return Status(kStorage, "commit failed: the transaction had failed and was rolled back");
  }
  return Status::Ok();
}

Status PgDatabase::Rollback() {
  in_transaction_ = false;
  // Held statements are moot; a transaction that was never sent needs no
  // ROLLBACK (the server answers one with only a warning anyway).
  const bool never_sent = !deferred_.empty() && deferred_.front().text == "BEGIN";
  deferred_.clear();
  if (never_sent) return Status::Ok();
  return ExecScript("ROLLBACK");
}

}  // namespace ensemble::server::store
