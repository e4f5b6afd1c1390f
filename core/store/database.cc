#include "core/store/database.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ensemble::core::store {

int64_t AsInt(const Value& v, int64_t if_null) {
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&v)) {
    int64_t out = if_null;
    std::from_chars(s->data(), s->data() + s->size(), out);
    return out;
  }
  return if_null;
}

std::string AsText(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    // Shortest text that reads back as the same double. Not std::to_chars:
    // the wasm build's libc++ (Emscripten 3.1.6) has no floating-point
    // to_chars. Any 15-digit decimal maps to a distinct double, so the first
    // precision that round-trips gives the shortest form, as to_chars would.
    char buf[32];
    for (int precision = 15; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof(buf), "%.*g", precision, *d);
      if (std::strtod(buf, nullptr) == *d) break;
    }
    return std::string(buf);
  }
  return "";
}

bool IsNull(const Value& v) { return std::holds_alternative<Null>(v); }

std::size_t BulkChunk(std::size_t left) {
  for (std::size_t n : kBulkChunks) {
    if (n <= left) return n;
  }
  return 1;
}

std::string ValueRows(std::size_t rows, std::size_t columns) {
  std::string out;
  for (std::size_t i = 0; i < rows; ++i)
    out += (i ? ", (" : "(") + Placeholders(columns * i + 1, columns) + ")";
  return out;
}

std::string Placeholders(std::size_t first, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += i ? ", $" : "$";
    out += std::to_string(first + i);
  }
  return out;
}

namespace {

// A row of Rows seen through RowView.
class ValuesView final : public RowView {
 public:
  explicit ValuesView(const std::vector<Value>& row) : row_(row) {}
  bool IsNull(int column) const override { return store::IsNull(row_[column]); }
  int64_t Int(int column) const override { return AsInt(row_[column]); }
  std::string_view Text(int column) const override {
    if (const auto* s = std::get_if<std::string>(&row_[column])) return *s;
    text_ = AsText(row_[column]);
    return text_;
  }

 private:
  const std::vector<Value>& row_;
  mutable std::string text_;  // A number's text, while the call lasts.
};

}  // namespace

Status Database::ForEachRow(std::string_view sql, const std::vector<Value>& params,
                            const std::function<Status(const RowView&)>& visit) {
  ENSEMBLE_ASSIGN_OR_RETURN(Rows rows, Query(sql, params));
  for (const std::vector<Value>& row : rows.rows) {
    ENSEMBLE_RETURN_IF_ERROR(visit(ValuesView(row)));
  }
  return Status::Ok();
}

Status Database::Exec(std::string_view sql, const std::vector<Value>& params) {
  return Query(sql, params).status();
}

Transaction::Transaction(Database& db, Durability durability) : db_(db) {
  int& d = db_.transaction_depth_;
  if (d == 0) {
    begin_status_ = db_.Begin(durability);
  } else {
    savepoint_ = "sp" + std::to_string(d);
    begin_status_ = db_.ExecDeferred("SAVEPOINT " + savepoint_);
  }
  if (begin_status_.ok()) {
    ++d;
  } else {
    done_ = true;
  }
}

Transaction::~Transaction() {
  if (done_) return;
  if (savepoint_.empty()) {
    // Nobody is left to hear of a failed rollback: the connection drops the
    // transaction anyway when it resets.
    (void)db_.Rollback();
  } else {
    RollbackToSavepoint();
  }
  --db_.transaction_depth_;
}

void Transaction::RollbackToSavepoint() {
  // Deferred like the SAVEPOINT itself; a failure surfaces in the enclosing
  // transaction's next statement, which then fails as a whole.
  (void)db_.ExecDeferred("ROLLBACK TO " + savepoint_);
  (void)db_.ExecDeferred("RELEASE " + savepoint_);
}

Status Transaction::Commit() {
  if (done_) return Status(codes::kInternal, "transaction already finished");
  done_ = true;
  Status st = savepoint_.empty() ? db_.Commit() : db_.ExecDeferred("RELEASE " + savepoint_);
  if (!st.ok()) {
    if (savepoint_.empty()) {
      (void)db_.Rollback();  // The commit's failure is the one to report.
    } else {
      RollbackToSavepoint();
    }
  }
  --db_.transaction_depth_;
  return st;
}

}  // namespace ensemble::core::store
