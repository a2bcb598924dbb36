# Warnings are on in every build but are errors only when asked for
# (-DHLOGRAPH_WERROR=ON, as CI builds): a compiler newer or older than CI's
# may warn about correct code, and that must not stop a user's build.
option(HLOGRAPH_WERROR "Treat warnings as errors (CI turns this on)" OFF)
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter)
if(HLOGRAPH_WERROR)
  add_compile_options(-Werror)
endif()
