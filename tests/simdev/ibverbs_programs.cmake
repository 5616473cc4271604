# The drop-in libibverbs.so.1 (simdev/ibverbs): its exported ABI against what Debian's programs
# import, the device as ibv_devinfo and ibv_devices show it, and the verbs paths the parity
# pairs (parity_programs.txt) leave out: completion channels (-e), UD in perftest, the atomic
# latency test and longer runs. Included by CMakeLists.txt (rdmascope_fabric_program).
if(NOT TARGET rdmascope_ibverbs)
  return()
endif()

add_test(NAME simdev.verbs_abi
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/verbs_abi_test.sh $<TARGET_FILE:rdmascope_ibverbs>)
set_tests_properties(simdev.verbs_abi PROPERTIES LABELS simdev TIMEOUT 60 SKIP_RETURN_CODE 77)

add_test(NAME simdev.devinfo
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/devinfo_test.sh $<TARGET_FILE:rdmascope-cli>
          $<TARGET_FILE_DIR:rdmascope_ibverbs>)
set_tests_properties(simdev.devinfo PROPERTIES LABELS simdev TIMEOUT 60 SKIP_RETURN_CODE 77)

set(pingpong_report "iters in [0-9.]+ seconds = [0-9.]+ usec/iter")
set(perftest_report "^[ \\t]*[0-9]+[ \\t]+[0-9]+([ \\t]+[0-9.]+){3,}")
foreach(pp rc uc ud srq)
  rdmascope_fabric_program(ibverbs_${pp}_pingpong_events
    SERVER "ibv_${pp}_pingpong -d rdmascope0 -g 1 -n 100 -e"
    CLIENT "ibv_${pp}_pingpong -d rdmascope0 -g 1 -n 100 -e localhost"
    READY tcp:18515
    EXPECT --expect-server ${pingpong_report} --expect-client ${pingpong_report})
endforeach()
rdmascope_fabric_program(ibverbs_rc_pingpong_long
  SERVER "ibv_rc_pingpong -d rdmascope0 -g 1 -n 1000 -s 65536"
  CLIENT "ibv_rc_pingpong -d rdmascope0 -g 1 -n 1000 -s 65536 localhost"
  READY tcp:18515
  EXPECT --expect-server ${pingpong_report} --expect-client ${pingpong_report})
rdmascope_fabric_program(ibverbs_send_bw_ud
  SERVER "ib_send_bw -d rdmascope0 -x 1 -F -n 100 -c UD"
  CLIENT "ib_send_bw -d rdmascope0 -x 1 -F -n 100 -c UD localhost"
  READY tcp:18515
  EXPECT --expect-server ${perftest_report} --expect-client ${perftest_report})
rdmascope_fabric_program(ibverbs_send_bw_events
  SERVER "ib_send_bw -d rdmascope0 -x 1 -F -n 100 -e"
  CLIENT "ib_send_bw -d rdmascope0 -x 1 -F -n 100 -e localhost"
  READY tcp:18515
  EXPECT --expect-server ${perftest_report} --expect-client ${perftest_report})
foreach(test write_bw read_bw atomic_bw)
  rdmascope_fabric_program(ibverbs_${test}
    SERVER "ib_${test} -d rdmascope0 -x 1 -F -n 200"
    CLIENT "ib_${test} -d rdmascope0 -x 1 -F -n 200 localhost"
    READY tcp:18515
    EXPECT --expect-client ${perftest_report})
endforeach()
# the passive side of the READ and atomic latency tests prints no result, as on any device
foreach(test send_lat write_lat read_lat atomic_lat)
  rdmascope_fabric_program(ibverbs_${test}
    SERVER "ib_${test} -d rdmascope0 -x 1 -F -n 200"
    CLIENT "ib_${test} -d rdmascope0 -x 1 -F -n 200 localhost"
    READY tcp:18515
    EXPECT --expect-client ${perftest_report})
endforeach()

# The ibv_wr_* post-send API (struct ibv_qp_ex) that verbs.h's inline calls reach, from a test
# program built as an ordinary rdma-core program (against Debian's libibverbs; `exec` makes the
# loader pick the drop-in).
if(TARGET ibverbs::ibverbs)
  enable_language(C)
  add_executable(post_send_api post_send_api.c)
  target_link_libraries(post_send_api PRIVATE ibverbs::ibverbs)
  set_target_properties(post_send_api PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
  target_compile_options(post_send_api PRIVATE -Wall -Wextra
                         $<$<BOOL:${RDMASCOPE_WERROR}>:-Werror>)
  add_dependencies(post_send_api rdmascope_ibverbs)
  rdmascope_fabric_program(ibverbs_post_send_api
    SERVER "$<TARGET_FILE:post_send_api> -s"
    CLIENT "$<TARGET_FILE:post_send_api> localhost"
    READY tcp:18620
    EXPECT --expect-server "server: the WRITE" --expect-client "client: WRITE")
endif()
