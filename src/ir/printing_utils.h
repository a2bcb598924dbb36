// Spelling helpers shared by the printers: strings, identifiers, floats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/element_type.h"

namespace hlograph::ir {

// "text" with MLIR escapes (\", \\, \n, \t and \XX hex for the rest).
std::string QuoteString(std::string_view s);
// A bare identifier when legal ([A-Za-z_][A-Za-z0-9_$.]*), else quoted.
std::string SymbolName(std::string_view name);
bool IsBareIdentifier(std::string_view s);
// A float of type `t` given by its bit pattern, as MLIR spells it: decimal
// when the decimal reads back to the same bits, else 0x-hex bits (NaN, inf
// and values with no short exact decimal).
std::string FormatFloatBits(uint64_t bits, ElementType t);

}  // namespace hlograph::ir
