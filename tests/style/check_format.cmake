# cmake -DCLANG_FORMAT=... -DROOT=... -P check_format.cmake: fails naming every C/C++ file under app/, core/, ui/
# and tests/ that `clang-format` would change, with the command that fixes them.
set(files)
foreach(dir app core ui tests)
  file(GLOB_RECURSE found RELATIVE ${ROOT} ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h ${ROOT}/${dir}/*.c)
  list(APPEND files ${found})
endforeach()
list(LENGTH files count)
# One clang-format for the whole tree; file by file only to name the culprits.
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${files} WORKING_DIRECTORY ${ROOT}
                RESULT_VARIABLE all_rc OUTPUT_QUIET ERROR_QUIET)
if(all_rc EQUAL 0)
  message(STATUS "all ${count} C/C++ files follow .clang-format")
  return()
endif()
set(unformatted)
foreach(f IN LISTS files)
  execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${f} WORKING_DIRECTORY ${ROOT}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    list(APPEND unformatted ${f})
  endif()
endforeach()
if(unformatted)
  list(JOIN unformatted " " names)
  message(FATAL_ERROR "not formatted with ${CLANG_FORMAT} (.clang-format): ${names}\nfix: clang-format -i ${names}")
endif()
message(STATUS "all ${count} C/C++ files follow .clang-format")
