// PJRT_Buffer_Type <-> hlograph element types.
#pragma once

#include <optional>

#include "ir/element_type.h"
#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

std::optional<ir::ElementType> FromPjrtType(PJRT_Buffer_Type type);
std::optional<PJRT_Buffer_Type> ToPjrtType(ir::ElementType type);

}  // namespace hlograph::pjrt
