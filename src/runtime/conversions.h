// Between the public API's host arrays (include/hlograph/array.h) and the
// backends' host tensors (backends/cpu/tensor.h).
#pragma once

#include <optional>

#include "backends/cpu/tensor.h"
#include "hlograph/array.h"
#include "hlograph/executable.h"
#include "hlograph/status.h"
#include "ir/element_type.h"
#include "ir/type.h"

namespace hlograph::runtime {

ir::ElementType ToIr(ElementType type);
// Null for the IR's types with no public counterpart (tf32, index).
std::optional<ElementType> FromIr(ir::ElementType type);

// The public type of a parameter or result type (a token is a kToken
// scalar); an error (naming `what`, "parameter 0") for tuples and element
// types the public API has not.
StatusOr<ArrayType> ArrayTypeOf(const ir::Type& type, const std::string& what);

// Copies (the tensor's bytes are shared and must not be written).
cpu::Tensor ToTensor(const Array& array);
StatusOr<Array> FromTensor(const cpu::Tensor& tensor);

}  // namespace hlograph::runtime
