# CPack: the Debian package (scripts/package.sh runs cpack -G DEB on a build tree).
# Its dependencies come from the libraries the programs link (dpkg-shlibdeps: Qt 6,
# ISA-L, rdma-core, libfmt, libstdc++); tshark (a second opinion on every capture) and qemu (the
# Soft-RoCE lab) are recommended, the lab's other tools suggested.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rdmascope)
set(CPACK_PACKAGE_VENDOR "rdmascope")
set(CPACK_PACKAGE_CONTACT "rdmascope maintainers <maintainers@users.noreply.a-seed-232eb222.example>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see RDMA from the verbs call down to the bytes on the wire")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "rdmascope teaches and debugs RDMA. It simulates hosts with queue pairs,
completion queues and work requests over RoCEv2, RoCEv1, InfiniBand and
iWARP, or drives a real device through rdma-core, and shows every step
from the verbs call to the packets. It decodes captures layer by layer
and verifies the RoCE ICRC, sets each RDMA data path beside the TCP
socket copy path, and runs unmodified verbs programs on a simulated
device (rdmascope-cli fabric and exec).
.
The package holds the Qt 6 program rdmascope, the command-line tool
rdmascope-cli, the simulated device's libraries (in a private folder),
the scripts of a two-host Soft-RoCE lab in qemu, and example captures.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The drop-in libraries are private (never on the loader's path) and nothing links them: no
# shlibs entry. dpkg-shlibdeps is not told about their folder, so that rdmascope-cli's own
# libibverbs.so.1 and librdmacm.so.1 resolve to rdma-core's packages, not to the drop-ins.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# The lab's scripts (share/rdmascope/lab) include python3 programs. libpcap, libibverbs and
# librdmacm are opened when first called, not linked (packets/io/src/pcap_library.cpp,
# verbs_backend/src/ibv_library.cpp, ibv_cm_library.cpp), so dpkg-shlibdeps does not see them:
# their packages are named here, as the build machine's dpkg knows them (libpcap0.8, libibverbs1
# and librdmacm1 on Debian 12).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
foreach(opened PCAP IBVERBS RDMACM)
  if(NOT RDMASCOPE_${opened}_SONAME)
    continue()
  endif()
  if(opened STREQUAL "PCAP")
    set(library ${RDMASCOPE_PCAP_LIBRARY})
  else()
    set(library ${${opened}_LIBRARY})
  endif()
  get_filename_component(folder ${library} DIRECTORY)
  execute_process(COMMAND dpkg-query -S ${folder}/${RDMASCOPE_${opened}_SONAME}
                  OUTPUT_VARIABLE owner ERROR_QUIET)
  if(owner MATCHES "^([^:]+):")
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${CMAKE_MATCH_1}")
  else()
    message(WARNING "no Debian package owns ${folder}/${RDMASCOPE_${opened}_SONAME}: the "
                    "package will not depend on it")
  endif()
endforeach()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "tshark, qemu-system-x86")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "busybox-static, cpio, kmod, ibverbs-utils, perftest, rdmacm-utils, tcpdump")
include(CPack)
