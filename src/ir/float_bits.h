// Conversions between the bit patterns of every float element type and
// double, with IEEE round-to-nearest-even. Narrow types follow their formats
// (FN: no inf; FNUZ: single NaN, no -0; E8M0: powers of two only).
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/element_type.h"

namespace hlograph::ir {

double FloatBitsToDouble(uint64_t bits, ElementType t);
uint64_t DoubleToFloatBits(double value, ElementType t);
// Parses a decimal/inf/nan literal straight into `t` (f32 and f64 are
// correctly rounded from the text). Returns false when it is not a number.
bool ParseFloatLiteral(std::string_view text, ElementType t, uint64_t* bits);

}  // namespace hlograph::ir
