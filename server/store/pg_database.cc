#include "server/store/pg_database.h"

#include <libpq-fe.h>

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <system_error>

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

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

// libpq messages end with a newline; a Status message is one line.
std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Ignores NOTICEs ("relation already exists, skipping"), which libpq would
// otherwise print to stderr outside the logger.
void IgnoreNotice(void*, const char*) {}

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
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Status(kStorage, "cannot reconnect to PostgreSQL: " + Trimmed(PQerrorMessage(conn_)));
  }
  return Status::Ok();
}

Result<Rows> PgDatabase::Query(std::string_view sql, const std::vector<Value>& params) {
  ENSEMBLE_RETURN_IF_ERROR(EnsureConnected());
  std::vector<std::string> texts(params.size());
  std::vector<const char*> values(params.size(), nullptr);
  std::vector<Oid> types(params.size(), kUnknownOid);
  for (size_t i = 0; i < params.size(); ++i) {
    const Value& v = params[i];
    if (const auto* n = std::get_if<int64_t>(&v)) {
      texts[i] = std::to_string(*n);
      types[i] = kInt8Oid;
    } else if (const auto* d = std::get_if<double>(&v)) {
      texts[i] = DoubleToText(*d);
      types[i] = kFloat8Oid;
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      texts[i] = *s;
    } else {
      continue;  // NULL: a null pointer.
    }
    values[i] = texts[i].c_str();
  }
  const std::string text(sql);
  ResultPtr res(PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), types.data(),
                             values.data(), /*paramLengths=*/nullptr, /*paramFormats=*/nullptr,
                             kTextFormat));
  if (!res) return Error("statement failed", nullptr);
  ExecStatusType status = PQresultStatus(res.get());
  if (status == PGRES_COMMAND_OK) return Rows{};
  if (status != PGRES_TUPLES_OK) return Error("statement failed", res.get());

  Rows out;
  const int ncol = PQnfields(res.get());
  const int nrow = PQntuples(res.get());
  out.columns.reserve(ncol);
  for (int c = 0; c < ncol; ++c) out.columns.emplace_back(PQfname(res.get(), c));
  out.rows.reserve(nrow);
  for (int r = 0; r < nrow; ++r) {
    std::vector<Value>& row = out.rows.emplace_back();
    row.reserve(ncol);
    for (int c = 0; c < ncol; ++c) {
      if (PQgetisnull(res.get(), r, c)) {
        row.emplace_back(Null{});
        continue;
      }
      ENSEMBLE_ASSIGN_OR_RETURN(Value v,
                                ParseValue(PQftype(res.get(), c), PQgetvalue(res.get(), r, c),
                                           PQgetlength(res.get(), r, c)));
      row.push_back(std::move(v));
    }
  }
  return out;
}

Status PgDatabase::ExecScript(std::string_view sql) {
  ENSEMBLE_RETURN_IF_ERROR(EnsureConnected());
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

Status PgDatabase::Begin() {
  ENSEMBLE_RETURN_IF_ERROR(ExecScript("BEGIN"));
  in_transaction_ = true;
  return Status::Ok();
}

Status PgDatabase::Commit() {
  // Whatever happens, the transaction is over: a failed COMMIT rolls back.
  in_transaction_ = false;
  // Never reconnect here: COMMIT on a fresh connection would "succeed" with
  // nothing to commit.
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Status(kStorage, "commit failed: the connection to PostgreSQL was lost");
  }
  ResultPtr res(PQexec(conn_, "COMMIT"));
  if (!res) return Error("commit failed", nullptr);
  if (PQresultStatus(res.get()) != PGRES_COMMAND_OK) return Error("commit failed", res.get());
  // COMMIT of a transaction that hit an error "succeeds" by rolling back; the
  // caller must not believe its writes were kept.
  if (std::string_view(PQcmdStatus(res.get())) == "ROLLBACK") {
    return Status(kStorage, "commit failed: the transaction had failed and was rolled back");
  }
  return Status::Ok();
}

Status PgDatabase::Rollback() {
  in_transaction_ = false;
  return ExecScript("ROLLBACK");
}

}  // namespace ensemble::server::store
