# With no build type CMake compiles without optimization, and the CPU
# interpreter runs many times slower than it should. Whoever just runs
# `cmake -S . -B build` gets an optimized build; CI and developers name the
# build type they want (scripts/test.sh does).
get_property(HLOGRAPH_MULTI_CONFIG GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(NOT HLOGRAPH_MULTI_CONFIG)
  if(NOT CMAKE_BUILD_TYPE)
    set(CMAKE_BUILD_TYPE Release CACHE STRING "Debug, Release (the default), RelWithDebInfo or MinSizeRel" FORCE)
  endif()
  set_property(CACHE CMAKE_BUILD_TYPE PROPERTY STRINGS Debug Release RelWithDebInfo MinSizeRel)
endif()
