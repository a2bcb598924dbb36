// chlo.scan's pretty form, as MLIR prints it:
//   chlo.scan(%in, ...) inits (%init, ...) dimension=N  attributes {...} {
//   ^bb0(%input: T, ..., %carry: C, ...):
//     ...
//   } : (A, ..., C, ...) -> (R, ..., C, ...)
// The operand and result splits (operandSegmentSizes, resultSegmentSizes)
// are given by the syntax: the inputs, then the inits; one output per
// input, then one final carry per init.
#include "frontend/parser_impl.h"

namespace hlograph::frontend {

bool Parser::ParseScanOp(ir::Operation* op, size_t num_results) {
  std::vector<ir::Value*> inputs, inits;
  if (!Expect(Tok::kLParen, "'(' before the scan's inputs") || !ParseOperandList(&inputs) ||
      !Expect(Tok::kRParen, "')' after the scan's inputs")) {
    return false;
  }
  if (!ExpectKeyword("inits") || !Expect(Tok::kLParen, "'(' before the scan's initial carries") ||
      !ParseOperandList(&inits) || !Expect(Tok::kRParen, "')' after the scan's initial carries")) {
    return false;
  }
  int64_t dimension = 0;
  if (!ExpectKeyword("dimension") || !Expect(Tok::kEqual, "'=' after dimension") || !ParseInteger(&dimension)) {
    return false;
  }
  for (ir::Value* v : inputs) op->AddOperand(v);
  for (ir::Value* v : inits) op->AddOperand(v);
  op->SetAttr("dimension", ir::Attribute::Make(ir::IntegerAttr{dimension, ir::ElementType::kI64}));
  const std::vector<int64_t> split = {static_cast<int64_t>(inputs.size()), static_cast<int64_t>(inits.size())};
  op->SetAttr("operandSegmentSizes", ir::Attribute::Make(ir::DenseArrayAttr{ir::ElementType::kI32, split}));
  op->SetAttr("resultSegmentSizes", ir::Attribute::Make(ir::DenseArrayAttr{ir::ElementType::kI32, split}));
  if (!ParseExtraAttributes(op, "chlo.scan's")) return false;
  if (!tok_.Is(Tok::kLBrace)) return Error("expected the scan's body '{'");
  if (!ParseRegion(op->AddRegion())) return false;
  if (!Expect(Tok::kColon, "':' and the scan's function type")) return false;
  return ParseTrailingFunctionType(op, num_results);
}

}  // namespace hlograph::frontend
