// Errors as values: every fallible call returns Status or StatusOr<T>.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace hlograph {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    s.failed_ = true;
    return s;
  }
  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  bool failed_ = false;
  std::string message_;
};

template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT
  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace hlograph

// Returns the error of `expr` (a Status) from the enclosing function.
#define HLOGRAPH_TRY(expr)                                  \
  do {                                                      \
    ::hlograph::Status hlograph_try_status_ = (expr);       \
    if (!hlograph_try_status_.ok()) return hlograph_try_status_; \
  } while (0)

#define HLOGRAPH_CONCAT_INNER(a, b) a##b
#define HLOGRAPH_CONCAT(a, b) HLOGRAPH_CONCAT_INNER(a, b)
#define HLOGRAPH_ASSIGN_IMPL(tmp, decl, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  decl = std::move(tmp.value())
// Evaluates `expr` (a StatusOr); returns its error, or declares `decl` with
// its value: HLOGRAPH_ASSIGN(const Padding padding, PaddingAttr(op, "padding", 2));
#define HLOGRAPH_ASSIGN(decl, expr) HLOGRAPH_ASSIGN_IMPL(HLOGRAPH_CONCAT(hlograph_assign_, __LINE__), decl, expr)
