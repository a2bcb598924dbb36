// Attribute spelling in MLIR's generic syntax.
#pragma once

#include <string>

#include "ir/attribute.h"

namespace hlograph::ir {

void PrintAttribute(std::string& out, const Attribute& attr);
std::string AttributeToString(const Attribute& attr);
// `{a = 1 : i64, b}`; empty dictionaries print as `{}`.
void PrintDictionary(std::string& out, const std::vector<NamedAttribute>& entries);
// `[1, 2, 3]`
std::string I64ListToString(const std::vector<int64_t>& values);
// One element of a dense attribute as it appears inside dense<...>.
std::string DenseElementToString(const DenseElementsAttr& dense, int64_t index);
// Raw bits of one stored element (complex: 0 for real part, 1 for imaginary).
uint64_t DenseElementBits(const DenseElementsAttr& dense, int64_t index, int part = 0);

}  // namespace hlograph::ir

namespace hlograph::ir {
// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (or the `raw ...` field list).
std::string ConvDimsToString(const ConvDimsAttr& dims);
}  // namespace hlograph::ir
