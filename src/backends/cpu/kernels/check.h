// Checks used by the `check` dialect and by tests.
#pragma once

#include <string_view>

#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

enum class CheckMode { kBitwise, kAlmostEqual, kUlps };

// Compares `actual` with `expected` element by element. kAlmostEqual allows
// an absolute difference up to `tolerance`; kUlps requires the distance in
// ulps to lie in [min_ulp, max_ulp]. NaN equals NaN in both.
Status CheckTensors(const Tensor& actual, const Tensor& expected, CheckMode mode, double tolerance = 0,
                    int64_t min_ulp = 0, int64_t max_ulp = 0);

// The kernel for a custom_call spelling of a check (`@check.expect_eq`, ...).
KernelFn FindCheckCustomCall(std::string_view target);

}  // namespace hlograph::cpu
