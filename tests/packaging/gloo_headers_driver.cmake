# Run by gloo_headers_check.cmake as `cmake -D... -P gloo_headers_driver.cmake`: includes core/train's
# gloo_headers.cmake (MODULE) with whatever TORCH_INCLUDE_DIRS, GLOO_INCLUDE_DIR, DDPDESK_GLOO_PACK and
# DDPDESK_GLOO_SEARCH_SYSTEM the caller passed, and prints what it chose, one "KEY=value" line each.
cmake_minimum_required(VERSION 3.21) # the project's, so policies behave as in a real configure
include(${MODULE})
ddpdesk_find_gloo_headers(dir source)
message("GLOO_DIR=${dir}")
message("GLOO_SOURCE=${source}")
