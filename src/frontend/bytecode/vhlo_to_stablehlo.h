// One VHLO op (any version back to 0.9.0) to its StableHLO/func op: the name
// without its version, attributes renamed and regrouped (dimension numbers,
// channel handles), attributes that only restate a default dropped, as
// StableHLO's own deserializer does, and versions upgraded by defaulting
// the attributes an older version lacks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "frontend/bytecode/decoded.h"
#include "hlograph/status.h"
#include "ir/attribute.h"
#include "ir/op_def.h"

namespace hlograph::frontend::bytecode {

struct VhloOp {
  std::string name;                                   // "vhlo.dot_general_v2", or any other dialect's op
  std::vector<std::pair<std::string, AttrPtr>> attrs; // properties and discardable attributes
  std::string parent;                                 // the converted parent op's name; "" at top level
};

struct ConvertedOp {
  const ir::OpDef* def = nullptr;
  std::vector<ir::NamedAttribute> attrs;
};

// The StableHLO name of a VHLO op name ("vhlo.add_v1" -> "stablehlo.add").
std::string StablehloName(const std::string& vhlo_name, const std::string& parent);

// `where` places the op in messages ("op #12 (vhlo.add_v1), byte 345").
StatusOr<ConvertedOp> ConvertVhloOp(const VhloOp& op, const std::string& where);

}  // namespace hlograph::frontend::bytecode
