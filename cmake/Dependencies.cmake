# Every dependency comes from Debian; scripts/install-deps.sh installs them.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)
# libpcap, libibverbs and librdmacm are opened when first called (packets/io/src/
# pcap_library.cpp, verbs_backend/src/ibv_library.cpp and ibv_cm_library.cpp), by soname.
find_program(RDMASCOPE_READELF NAMES readelf REQUIRED)
function(rdmascope_soname variable library)
  execute_process(COMMAND ${RDMASCOPE_READELF} -d ${library} OUTPUT_VARIABLE dynamic ERROR_QUIET)
  if(NOT dynamic MATCHES "Library soname: \\[([^]]+)\\]")
    message(FATAL_ERROR "cannot read the soname of ${library}")
  endif()
  set(${variable} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
find_library(RDMASCOPE_PCAP_LIBRARY NAMES pcap HINTS ${PCAP_LIBRARY_DIRS} REQUIRED)
rdmascope_soname(RDMASCOPE_PCAP_SONAME ${RDMASCOPE_PCAP_LIBRARY})

find_path(ISAL_INCLUDE_DIR isa-l/crc.h REQUIRED)
find_library(ISAL_LIBRARY isal REQUIRED)
add_library(isal::isal UNKNOWN IMPORTED)
set_target_properties(isal::isal PROPERTIES IMPORTED_LOCATION ${ISAL_LIBRARY}
                                            INTERFACE_INCLUDE_DIRECTORIES ${ISAL_INCLUDE_DIR})

find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
find_package(fmt CONFIG REQUIRED)

if(RDMASCOPE_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# rdma-core's libibverbs: the real verbs backend is built whenever it is present.
find_path(IBVERBS_INCLUDE_DIR infiniband/verbs.h)
find_library(IBVERBS_LIBRARY ibverbs)
if(IBVERBS_INCLUDE_DIR AND IBVERBS_LIBRARY)
  set(RDMASCOPE_HAVE_IBVERBS ON)
  add_library(ibverbs::ibverbs UNKNOWN IMPORTED)
  set_target_properties(ibverbs::ibverbs PROPERTIES IMPORTED_LOCATION ${IBVERBS_LIBRARY}
                                                    INTERFACE_INCLUDE_DIRECTORIES ${IBVERBS_INCLUDE_DIR})
  rdmascope_soname(RDMASCOPE_IBVERBS_SONAME ${IBVERBS_LIBRARY})
else()
  set(RDMASCOPE_HAVE_IBVERBS OFF)
endif()
# rdma-core's librdmacm: connection management by rdma_cm (verbs --cm), found the same way.
find_path(RDMACM_INCLUDE_DIR rdma/rdma_cma.h)
find_library(RDMACM_LIBRARY rdmacm)
if(RDMASCOPE_HAVE_IBVERBS AND RDMACM_INCLUDE_DIR AND RDMACM_LIBRARY)
  set(RDMASCOPE_HAVE_RDMACM ON)
  add_library(rdmacm::rdmacm UNKNOWN IMPORTED)
  set_target_properties(rdmacm::rdmacm PROPERTIES IMPORTED_LOCATION ${RDMACM_LIBRARY}
                                                  INTERFACE_INCLUDE_DIRECTORIES ${RDMACM_INCLUDE_DIR})
  rdmascope_soname(RDMASCOPE_RDMACM_SONAME ${RDMACM_LIBRARY})
else()
  set(RDMASCOPE_HAVE_RDMACM OFF)
endif()

set(RDMASCOPE_HAVE_QT OFF)
if(RDMASCOPE_BUILD_GUI)
  find_package(Qt6 COMPONENTS Widgets Test QUIET)
  if(Qt6_FOUND)
    set(RDMASCOPE_HAVE_QT ON)
  endif()
endif()
message(STATUS "rdmascope: ibverbs=${RDMASCOPE_HAVE_IBVERBS} rdmacm=${RDMASCOPE_HAVE_RDMACM} qt6=${RDMASCOPE_HAVE_QT}")
