// The little language in which an OpDef spells its pretty syntax. Both the
// printer (ir/printer.cpp) and the parser (frontend/op_parser.cpp) interpret
// the same items, so an op's text form is declared once and round-trips.
//
// Items, separated by spaces:
//   ops          all operands, comma separated        %a, %b
//   op0          the first operand only
//   $name        attribute `name` in its short form   [1, 2] / LT / 0 / "s"
//   @name        symbol-reference attribute `name`    @callee
//   regions      the op's regions, if any: ({...}, {...})
//   dict         the attributes no other item printed {k = v}
//   ?[ ... ]?    optional group, present when its first attribute is
//   custom:name  a hand-written piece (slice ranges, dot dims, ...)
//   :same :fn :select :result :operands :arrow   the type suffix, see below
//   anything else is a literal token; a leading '^' glues it to the
//   previous token (no space), as in `@callee ^( ops )`.
// Type suffixes: `:same` prints `: T` when operands and results share one
// type (else the functional form); `:fn` always `: (A, B) -> R`; `:select`
// `: P, T`; `:result` the result types; `:operands` the operand types (results
// repeat them); `:arrow` `: A -> R` as CHLO prints it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hlograph::ir {

struct SyntaxItem {
  enum class Kind { kOperands, kOperand0, kAttr, kSymbol, kDict, kRegions, kOptBegin, kOptEnd, kCustom, kTypes, kLiteral };
  Kind kind;
  std::string text;  // attribute name, custom name, type style or literal
  bool glue = false;
};

std::vector<SyntaxItem> ParseSyntaxSpec(std::string_view spec);

}  // namespace hlograph::ir
