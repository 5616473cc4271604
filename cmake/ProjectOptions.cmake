# Compiler settings shared by every target of the project (not by third-party code).
function(rdmascope_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor)
  if(RDMASCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# A library of the project: PUBLIC include/, PRIVATE src/.
function(rdmascope_library target)
  cmake_parse_arguments(ARG "" "DIR" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_include_directories(${target} PUBLIC ${ARG_DIR}/include PRIVATE ${ARG_DIR}/src)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  rdmascope_target_defaults(${target})
endfunction()
