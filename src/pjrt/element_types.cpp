#include "pjrt/element_types.h"

#include <utility>

namespace hlograph::pjrt {
namespace {

using E = ir::ElementType;

constexpr std::pair<PJRT_Buffer_Type, E> kTypes[] = {
    {PJRT_Buffer_Type_PRED, E::kI1},
    {PJRT_Buffer_Type_S2, E::kI2},
    {PJRT_Buffer_Type_S4, E::kI4},
    {PJRT_Buffer_Type_S8, E::kI8},
    {PJRT_Buffer_Type_S16, E::kI16},
    {PJRT_Buffer_Type_S32, E::kI32},
    {PJRT_Buffer_Type_S64, E::kI64},
    {PJRT_Buffer_Type_U2, E::kU2},
    {PJRT_Buffer_Type_U4, E::kU4},
    {PJRT_Buffer_Type_U8, E::kU8},
    {PJRT_Buffer_Type_U16, E::kU16},
    {PJRT_Buffer_Type_U32, E::kU32},
    {PJRT_Buffer_Type_U64, E::kU64},
    {PJRT_Buffer_Type_F4E2M1FN, E::kF4E2M1FN},
    {PJRT_Buffer_Type_F6E2M3FN, E::kF6E2M3FN},
    {PJRT_Buffer_Type_F6E3M2FN, E::kF6E3M2FN},
    {PJRT_Buffer_Type_F8E3M4, E::kF8E3M4},
    {PJRT_Buffer_Type_F8E4M3, E::kF8E4M3},
    {PJRT_Buffer_Type_F8E4M3FN, E::kF8E4M3FN},
    {PJRT_Buffer_Type_F8E4M3FNUZ, E::kF8E4M3FNUZ},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, E::kF8E4M3B11FNUZ},
    {PJRT_Buffer_Type_F8E5M2, E::kF8E5M2},
    {PJRT_Buffer_Type_F8E5M2FNUZ, E::kF8E5M2FNUZ},
    {PJRT_Buffer_Type_F8E8M0FNU, E::kF8E8M0FNU},
    {PJRT_Buffer_Type_BF16, E::kBF16},
    {PJRT_Buffer_Type_F16, E::kF16},
    {PJRT_Buffer_Type_F32, E::kF32},
    {PJRT_Buffer_Type_F64, E::kF64},
    {PJRT_Buffer_Type_C64, E::kC64},
    {PJRT_Buffer_Type_C128, E::kC128},
};

}  // namespace

std::optional<ir::ElementType> FromPjrtType(PJRT_Buffer_Type type) {
  for (const auto& [pjrt, element] : kTypes) {
    if (pjrt == type) return element;
  }
  return std::nullopt;
}

std::optional<PJRT_Buffer_Type> ToPjrtType(ir::ElementType type) {
  for (const auto& [pjrt, element] : kTypes) {
    if (element == type) return pjrt;
  }
  return std::nullopt;
}

}  // namespace hlograph::pjrt
