# Where Gloo's headers come from. rendezvous/c10d_compat.cpp includes c10d's ProcessGroupGloo.hpp, which includes
# <gloo/algorithm.h> and its siblings. Debian's LibTorch and the LibTorch zip have them beside c10d's headers, but the
# LibTorch inside a pip or conda torch (torch.utils.cmake_prefix_path) ships c10d's headers without Gloo's, so the
# build would stop deep inside LibTorch's headers. This file finds them first, or stops with one message that says
# what to install.
#
# ddpdesk_find_gloo_headers(<dir_var> <source_var>) sets <dir_var> to the folder that holds gloo/algorithm.h and
# <source_var> to where it came from, in words. It looks, in this order:
#   1. LibTorch's own include folders (TORCH_INCLUDE_DIRS): headers that match the Gloo inside that LibTorch;
#   2. GLOO_INCLUDE_DIR (cache): a folder the user names; one without gloo/algorithm.h is an error, not skipped;
#   3. DDPDESK_GLOO_PACK (cache): a vendored pack, by default tests/gpu/vendor/gloo-include, which
#      `tests/gpu/device-check.sh --pack` copies from Debian's libgloo-dev;
#   4. the system, when DDPDESK_GLOO_SEARCH_SYSTEM is ON (the default): libgloo-dev's /usr/include/gloo, or
#      /usr/local/include, or the CMAKE_PREFIX_PATH / include folders CMake searches anyway.
# The Gloo headers of another build need not match the Gloo compiled into LibTorch in every define: Debian's
# gloo/config.h says GLOO_USE_CUDA 0 while a CUDA wheel's Gloo has CUDA. That does not matter here: DDP Desk only
# calls c10d's exported ProcessGroupGloo API, whose header uses no CUDA-dependent Gloo type, and Debian 12's
# libgloo-dev headers built and trained with the PyTorch 2.11 + CUDA 13 wheel (issue 40).

get_filename_component(_ddpdesk_default_gloo_pack "${CMAKE_CURRENT_LIST_DIR}/../../tests/gpu/vendor/gloo-include"
                       ABSOLUTE)
set(GLOO_INCLUDE_DIR "" CACHE PATH "Folder that holds gloo/algorithm.h, for a LibTorch without Gloo's headers")
set(DDPDESK_GLOO_PACK "${_ddpdesk_default_gloo_pack}"
    CACHE PATH "Vendored Gloo headers (folder holding gloo/algorithm.h; tests/gpu/device-check.sh --pack)")
set(DDPDESK_GLOO_SEARCH_SYSTEM ON CACHE BOOL "Look for Gloo's headers in the system (libgloo-dev) as a last resort")

function(ddpdesk_find_gloo_headers dir_var source_var)
  set(header gloo/algorithm.h)
  # A folder the user named but that lacks the header is a mistake to report, not a reason to look elsewhere.
  if(GLOO_INCLUDE_DIR AND NOT EXISTS "${GLOO_INCLUDE_DIR}/${header}")
    message(FATAL_ERROR
      "DDP Desk: GLOO_INCLUDE_DIR is '${GLOO_INCLUDE_DIR}', but there is no ${header} in it. Pass the folder that "
      "holds the gloo/ folder (libgloo-dev's is /usr/include), not gloo/ itself.")
  endif()

  foreach(dir IN LISTS TORCH_INCLUDE_DIRS)
    if(EXISTS "${dir}/${header}")
      if(GLOO_INCLUDE_DIR AND NOT GLOO_INCLUDE_DIR STREQUAL dir)
        message(STATUS "DDP Desk: GLOO_INCLUDE_DIR (${GLOO_INCLUDE_DIR}) not used: LibTorch brings its own Gloo "
                       "headers, which match the Gloo inside it")
      endif()
      set(${dir_var} "${dir}" PARENT_SCOPE)
      set(${source_var} "LibTorch's own include folder" PARENT_SCOPE)
      return()
    endif()
  endforeach()

  if(GLOO_INCLUDE_DIR)
    set(${dir_var} "${GLOO_INCLUDE_DIR}" PARENT_SCOPE)
    set(${source_var} "GLOO_INCLUDE_DIR" PARENT_SCOPE)
    return()
  endif()

  if(DDPDESK_GLOO_PACK AND EXISTS "${DDPDESK_GLOO_PACK}/${header}")
    set(${dir_var} "${DDPDESK_GLOO_PACK}" PARENT_SCOPE)
    set(${source_var} "vendored pack, DDPDESK_GLOO_PACK" PARENT_SCOPE)
    return()
  endif()

  set(system_note "not searched: DDPDESK_GLOO_SEARCH_SYSTEM=OFF")
  if(DDPDESK_GLOO_SEARCH_SYSTEM)
    find_path(system_dir NAMES ${header} PATHS /usr/include /usr/local/include NO_CACHE)
    if(system_dir)
      string(REGEX REPLACE "(.)/+$" "\\1" system_dir "${system_dir}")
      set(${dir_var} "${system_dir}" PARENT_SCOPE)
      set(${source_var} "system, e.g. libgloo-dev" PARENT_SCOPE)
      return()
    endif()
    set(system_note "/usr/include, /usr/local/include and CMake's prefixes")
  endif()

  if(NOT TORCH_INCLUDE_DIRS)
    set(torch_note "none known")
  else()
    string(REPLACE ";" ", " torch_note "${TORCH_INCLUDE_DIRS}")
  endif()
  if(NOT DDPDESK_GLOO_PACK)
    set(pack_note "not set")
  else()
    set(pack_note "${DDPDESK_GLOO_PACK}")
  endif()
  message(FATAL_ERROR
    "DDP Desk: Gloo's headers (${header}) were not found, and the worker needs them: c10d's ProcessGroupGloo.hpp "
    "includes them. A LibTorch from a pip or conda torch (torch.utils.cmake_prefix_path) ships c10d's headers but not "
    "Gloo's.\n"
    "Do one of these, then configure again:\n"
    "  - on Debian or Ubuntu: sudo apt install libgloo-dev\n"
    "  - or pass -DGLOO_INCLUDE_DIR=<folder holding gloo/algorithm.h>, e.g. the copy of libgloo-dev's headers that "
    "tests/gpu/device-check.sh --pack makes on a Debian machine: "
    "-DGLOO_INCLUDE_DIR=<repository>/tests/gpu/vendor/gloo-include\n"
    "Looked in: LibTorch's include folders (${torch_note}); GLOO_INCLUDE_DIR (not set); the vendored pack "
    "DDPDESK_GLOO_PACK (${pack_note}); the system (${system_note}).")
endfunction()
