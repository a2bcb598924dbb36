// One declaration per op: its name, operand/result/region counts, the
// attributes it owns (with the kind each must have), its pretty syntax and
// its verifier. Everything else (parser, printer, verifier, and later the
// backends) looks ops up here; adding an op touches its declaration only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"
#include "ir/op_id.h"

namespace hlograph::ir {

class Operation;

enum class AttrKind : uint8_t {
  kAny,
  kUnit,
  kBool,
  kI32,           // integer attribute of any width, printed bare in syntax
  kI64,
  kFloat,
  kString,
  kSymbolRef,
  kType,
  kI64Array,      // array<i64: ...>
  kBoolArray,     // array<i1: ...>
  kI64Elements,   // dense<...> : tensor<...xi64>
  kElements,      // dense<...> : tensor<...> of any element type
  kEnum,          // #stablehlo<enum_name VALUE>, printed bare in syntax
  kEnumArray,     // [#stablehlo<precision DEFAULT>, ...], printed [DEFAULT, ...]
  kArray,
  kDict,
  kDotDims,
  kGatherDims,
  kScatterDims,
  kConvDims,
  kChannelHandle,
  kDialectBody,   // an opaque dialect attribute printed without its prefix:
                  // enum_name holds "prefix|suffix", e.g. "#sdy.sharding|"
};

struct AttrSpec {
  std::string name;
  AttrKind kind = AttrKind::kAny;
  bool optional = false;
  std::string enum_name;  // for kEnum / kEnumArray; "prefix|suffix" for kDialectBody
  std::string BodyPrefix() const { return enum_name.substr(0, enum_name.find('|')); }
  std::string BodySuffix() const {
    size_t bar = enum_name.find('|');
    return bar == std::string::npos ? "" : enum_name.substr(bar + 1);
  }
};

enum OpTrait : uint32_t {
  kTraitNone = 0,
  kElementwise = 1u << 0,         // same-shaped operands and result, per element
  kSameOperandAndResultType = 1u << 1,
  kTerminator = 1u << 2,
  kIsolatedFromAbove = 1u << 3,   // func.func: regions cannot see outer values
  kSymbol = 1u << 4,              // defines sym_name
  kHasSideEffect = 1u << 5,
};

// Variable counts are written as -1.
constexpr int kVariadic = -1;

using VerifyFn = std::function<Status(const Operation&)>;

struct OpDef {
  std::string name;        // "stablehlo.add"
  OpId id = OpId::kNumOps;  // set by the registry from the name
  std::string_view dialect() const { return std::string_view(name).substr(0, name.find('.')); }
  std::string_view short_name() const { return std::string_view(name).substr(name.find('.') + 1); }
  int num_operands = kVariadic;
  int num_results = 1;
  int num_regions = 0;     // kVariadic for case
  std::vector<AttrSpec> attrs;
  // Pretty syntax (see frontend/op_syntax.h for the little language); empty
  // means the op is always printed in the generic form.
  std::string syntax;
  uint32_t traits = kTraitNone;
  VerifyFn verify;         // op-specific rules, after the generic checks

  const AttrSpec* FindAttr(std::string_view attr_name) const;
  bool Has(OpTrait t) const { return (traits & t) != 0; }
};

// The registry of every op hlograph knows.
const OpDef* LookupOp(std::string_view name);
const OpDef* LookupOp(OpId id);
const std::vector<const OpDef*>& AllOps();

// Builder used by the op tables (src/ir/ops/*.cpp).
class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string name) { def_.name = std::move(name); }
  OpDefBuilder& Operands(int n) { def_.num_operands = n; return *this; }
  OpDefBuilder& Results(int n) { def_.num_results = n; return *this; }
  OpDefBuilder& Regions(int n) { def_.num_regions = n; return *this; }
  OpDefBuilder& Attr(std::string name, AttrKind kind, std::string enum_name = "") {
    def_.attrs.push_back({std::move(name), kind, false, std::move(enum_name)});
    return *this;
  }
  OpDefBuilder& OptAttr(std::string name, AttrKind kind, std::string enum_name = "") {
    def_.attrs.push_back({std::move(name), kind, true, std::move(enum_name)});
    return *this;
  }
  OpDefBuilder& Syntax(std::string s) { def_.syntax = std::move(s); return *this; }
  OpDefBuilder& Traits(uint32_t t) { def_.traits |= t; return *this; }
  OpDefBuilder& Verify(VerifyFn f) { def_.verify = std::move(f); return *this; }
  OpDef Build() { return std::move(def_); }

 private:
  OpDef def_;
};

}  // namespace hlograph::ir
