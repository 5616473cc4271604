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
