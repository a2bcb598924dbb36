# Warnings are on in every build but are errors only when asked for
# (-DHLOGRAPH_WERROR=ON, as CI builds): a compiler newer or older than CI's
# may warn about correct code, and that must not stop a user's build.
option(HLOGRAPH_WERROR "Treat warnings as errors (CI turns this on)" OFF)
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter)
# GCC 12 and 13 at -O3 report std::string concatenation ("x" + std::string)
# inlined from libstdc++ as overlapping memcpy (-Wrestrict, GCC bug 105329):
# a false positive in the standard library's code, not ours.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
  add_compile_options(-Wno-restrict)
endif()
if(HLOGRAPH_WERROR)
  add_compile_options(-Werror)
endif()
