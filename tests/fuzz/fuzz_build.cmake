# The fuzz and sanitizer build, included by the top-level CMakeLists.txt when DDPDESK_FUZZ is ON (installer/
# sanitize.sh configures it into build-asan/). Everything here is compiled by clang with AddressSanitizer and
# UBSan (any undefined behaviour aborts) and libFuzzer's coverage: the plain-C++ libraries the parsers live in
# (os, protocol, net, the node link), the launcher's (with its doctor and monitor) where Qt 6 is found, the fuzz
# targets of tests/fuzz, and the net, protocol and node-link tests. No LibTorch, no GUI.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "DDPDESK_FUZZ=ON needs clang with libFuzzer (Debian: clang-14 and libfuzzer-14-dev): "
                      "configure a folder of its own with -DCMAKE_CXX_COMPILER=clang++-14 (installer/sanitize.sh)")
endif()
set(DDPDESK_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# -O1 after the build type's flags: fast enough to fuzz, quick to compile, stacks still readable.
add_compile_options(-O1 -g ${DDPDESK_SANITIZE_FLAGS} -fsanitize=fuzzer-no-link)
add_link_options(${DDPDESK_SANITIZE_FLAGS})

find_package(nlohmann_json 3.2 REQUIRED)
option(DDPDESK_FUZZ_QT "Also the launcher's parsers (profiles, rank lines, replay) and the Qt link tests" ON)
if(DDPDESK_FUZZ_QT)
  find_package(Qt6 6.2 QUIET COMPONENTS Core Test)
endif()
if(TARGET Qt6::Core)
  set(CMAKE_AUTOMOC ON)
  message(STATUS "DDP Desk fuzz build: with Qt ${Qt6_VERSION} (the launcher's parsers, the link tests)")
else()
  message(STATUS "DDP Desk fuzz build: without Qt (the plain-C++ parsers and tests only)")
endif()

add_subdirectory(core/os)
add_subdirectory(core/protocol)
add_subdirectory(core/net)
add_subdirectory(core/monitor) # net.store_server_hostile reads the server's memory through it
if(TARGET Qt6::Core)
  add_subdirectory(core/doctor)
endif()
add_subdirectory(core/launch) # without Qt: only ddpdesk_link

enable_testing()
add_subdirectory(tests/fuzz)
