# ctest install_find_package_consumer (CMakeLists.txt): installs the build in MYRIAD_BINARY_DIR into a prefix under
# MYRIAD_WORK_DIR, then configures, builds and runs the outside project MYRIAD_CONSUMER_DIR against it through
# find_package(myriad). Any failing step fails the test with its output.
set(prefix ${MYRIAD_WORK_DIR}/prefix)
set(consumer_build ${MYRIAD_WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${MYRIAD_WORK_DIR})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result})")
  endif()
endfunction()

run_step("cmake --install" ${CMAKE_COMMAND} --install ${MYRIAD_BINARY_DIR} --prefix ${prefix})
run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${MYRIAD_CONSUMER_DIR} -B ${consumer_build}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
         -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
run_step("running the consumer" ${consumer_build}/myriad_consumer)
