# What `cmake --install` puts where. A wheel build (`pip install .`, which
# scikit-build-core drives; SKBUILD is set) installs only the PJRT plugin,
# into the hlograph_jax package, the one place the package loads it from
# without HLOGRAPH_PJRT_LIBRARY. A plain install puts the CLI in bin/ and the
# plugin in lib/.
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
endif()
