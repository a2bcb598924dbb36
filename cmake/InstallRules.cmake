# What `cmake --install` puts where. A wheel build (`pip install .`, which
# scikit-build-core drives; SKBUILD is set) installs only the PJRT plugin,
# into the hlograph_jax package, the one place the package loads it from
# without HLOGRAPH_PJRT_LIBRARY. A plain install puts the CLI in bin/ and the
# plugin in lib/, and, as component "dev", the C++ API: its headers
# (include/hlograph/), libhlograph.so and a package config, so that
# find_package(hlograph CONFIG) gives hlograph::hlograph:
#   cmake --install build --prefix PREFIX --component dev
include(GNUInstallDirs)
if(SKBUILD)
  if(NOT TARGET hlograph_pjrt)
    message(FATAL_ERROR "the Python package needs the PJRT plugin, which needs the CPU backend: "
                        "do not set HLOGRAPH_CPU_BACKEND=OFF for `pip install`")
  endif()
  install(TARGETS hlograph_pjrt LIBRARY DESTINATION hlograph_jax COMPONENT jax_plugin)
else()
  install(TARGETS hlograph RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  if(TARGET hlograph_pjrt)
    install(TARGETS hlograph_pjrt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT jax_plugin)
  endif()
  if(TARGET hlograph_shared)
    include(CMakePackageConfigHelpers)
    set(HLOGRAPH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/hlograph)
    install(FILES include/hlograph/hlograph.h include/hlograph/client.h include/hlograph/executable.h
                  include/hlograph/array.h include/hlograph/status.h
            DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hlograph COMPONENT dev)
    install(TARGETS hlograph_shared EXPORT hlographTargets
            LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev NAMELINK_COMPONENT dev)
    install(EXPORT hlographTargets NAMESPACE hlograph:: DESTINATION ${HLOGRAPH_INSTALL_CMAKEDIR} COMPONENT dev)
    configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hlographConfig.cmake.in
                                  ${PROJECT_BINARY_DIR}/hlographConfig.cmake
                                  INSTALL_DESTINATION ${HLOGRAPH_INSTALL_CMAKEDIR})
    # 0.x: minor versions may break the API.
    write_basic_package_version_file(${PROJECT_BINARY_DIR}/hlographConfigVersion.cmake
                                     COMPATIBILITY SameMinorVersion)
    install(FILES ${PROJECT_BINARY_DIR}/hlographConfig.cmake ${PROJECT_BINARY_DIR}/hlographConfigVersion.cmake
            DESTINATION ${HLOGRAPH_INSTALL_CMAKEDIR} COMPONENT dev)
  endif()
endif()
