# The fuzz targets and the sanitized test areas, shared by the fuzz build (DDPDESK_FUZZ, which builds and
# registers them) and the normal build (which registers fuzz.<name> and asan.<area> to run them from the
# sanitizer build folder). NAME=LIBRARIES: the executable is fuzz_NAME (fuzz_NAME.cpp), its seed corpus
# corpus/NAME/, its crash regressions regressions/NAME/. Those linking ddpdesk_launch need Qt.
set(DDPDESK_FUZZ_TARGETS
    store_session=ddpdesk_net
    link_frames=ddpdesk_link
    link_server=ddpdesk_link
    link_client=ddpdesk_link
    folder_stream=ddpdesk_link
    telemetry=ddpdesk_protocol
    collective_progress=ddpdesk_protocol
    output_mark=ddpdesk_protocol
    file_store_reader=ddpdesk_protocol
    rank_line=ddpdesk_launch
    profile=ddpdesk_launch
    run_replay=ddpdesk_launch)
# asan.AREA in the normal build runs the sanitizer build's tests matching the regular expression.
set(DDPDESK_SANITIZED_AREAS
    "protocol=^protocol\\."
    "net=^net\\."
    "link=^launch\\.(node_link|folder_link)$")
# Seconds each fuzz.<name> fuzzes (after its regressions pass).
set(DDPDESK_FUZZ_SECONDS 10 CACHE STRING "seconds each fuzz target runs in the suite")
