// Decoded (VHLO or builtin) attributes to hlograph's IR attributes, the
// one-to-one cases; op conversion (vhlo_to_stablehlo.h) handles the rest.
#pragma once

#include "frontend/bytecode/decoded.h"
#include "hlograph/status.h"
#include "ir/attribute.h"

namespace hlograph::frontend::bytecode {

// `what` names the attribute in messages ("attribute 'value' of stablehlo.constant").
StatusOr<ir::Attribute> ConvertGeneric(const DecodedAttr& attr, const std::string& what);

// A tensor attribute's data in hlograph's dense layout (one little-endian
// element per StorageBytes, bools as bytes, a splat stored once).
StatusOr<ir::DenseElementsAttr> ConvertDense(const DecodedAttr& attr, const std::string& what);

// The int64 values of a tensor attribute of integers.
StatusOr<std::vector<int64_t>> TensorInts(const DecodedAttr& attr, const std::string& what);

}  // namespace hlograph::frontend::bytecode
