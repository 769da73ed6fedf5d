# The programs of the wine leg, one home for both builds: tests/wine/CMakeLists.txt builds each with mingw-w64,
# tests/CMakeLists.txt registers each as ctest wine.<name> (label wine). Entry: name|source|libraries...
set(DDPDESK_WINE_TESTS
    "store_spec|tests/protocol/test_store_spec.cpp|win_protocol"
    "utf8|tests/protocol/test_utf8.cpp|win_protocol"
    "run_auth|tests/protocol/test_run_auth.cpp|win_protocol"
    "worker_settings|tests/protocol/test_worker_settings.cpp|win_protocol"
    "warm_start|tests/protocol/test_warm_start.cpp|win_protocol"
    "process|tests/os/test_process.cpp|win_os"
    "process_job|tests/os/test_process_job.cpp|win_os"
    "rename_aside|tests/os/test_rename_aside.cpp|win_os"
    "owned_file|tests/os/test_owned_file.cpp|win_os"
    "plain_file|tests/os/test_plain_file.cpp|win_os"
    "json_fields|tests/protocol/test_json_fields.cpp|win_protocol"
    "os_probes|tests/doctor/test_os_probes.cpp|win_doctor"
    "shared_memory|tests/os/test_shared_memory.cpp|win_os"
    "tcp_socket|tests/os/test_tcp_socket.cpp|win_os"
    "process_holders|tests/os/test_process_holders.cpp|win_os"
    "net_interfaces|tests/os/test_net_interfaces.cpp|win_os"
    "nvml_planting|tests/monitor/win_nvml_planting.cpp|win_monitor"
    "nvml_fake|tests/monitor/test_nvml_fake.cpp|win_monitor")
