#include "pjrt/plugin.h"

#include <cstring>

namespace hlograph::pjrt {
namespace {

PJRT_NamedValue VersionAttribute(const char* name, const int64_t (&version)[3]) {
  PJRT_NamedValue v;
  std::memset(&v, 0, sizeof(v));
  v.struct_size = PJRT_STRUCT_SIZE(PJRT_NamedValue, value_size);
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = PJRT_NamedValue_kInt64List;
  v.int64_array_value = version;
  v.value_size = 3;
  return v;
}

}  // namespace

PJRT_Error* PluginInitialize(PJRT_Plugin_Initialize_Args* args) { return nullptr; }

PJRT_Error* PluginAttributes(PJRT_Plugin_Attributes_Args* args) {
  static const PJRT_NamedValue attributes[] = {
      VersionAttribute("stablehlo_current_version", kStablehloCurrentVersion),
      VersionAttribute("stablehlo_minimum_version", kStablehloMinimumVersion),
  };
  args->attributes = attributes;
  args->num_attributes = sizeof(attributes) / sizeof(attributes[0]);
  return nullptr;
}

}  // namespace hlograph::pjrt
