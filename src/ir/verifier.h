// Checks a module against the StableHLO type and shape rules. Every error
// names file:line:col, the op and what was expected.
#pragma once

#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::ir {

// Verifies everything; the message lists up to `max_errors` errors, one a line.
Status VerifyModule(const Module& module, size_t max_errors = 20);
// Verifies one op (not its regions' contents): generic rules, then its own.
Status VerifyOperation(const Operation& op);

}  // namespace hlograph::ir
