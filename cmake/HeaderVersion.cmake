# hlograph_header_version(HEADER MAJOR MINOR PATCH OUT): OUT is the version
# that HEADER states in the three #defines named, as "major.minor.patch",
# or empty when it does not state them all.
function(hlograph_header_version header major minor patch out)
  set(parts)
  foreach(name ${major} ${minor} ${patch})
    file(STRINGS "${header}" line REGEX "^#define ${name} +[0-9]+" LIMIT_COUNT 1)
    if(NOT line MATCHES "^#define ${name} +([0-9]+)")
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    list(APPEND parts ${CMAKE_MATCH_1})
  endforeach()
  list(JOIN parts "." version)
  set(${out} "${version}" PARENT_SCOPE)
endfunction()
