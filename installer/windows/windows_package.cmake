# The Windows installer: NSIS through CPack, plus a ZIP of the same tree. Included by installer/cpack.cmake on WIN32
# (and on Linux by tests/packaging/nsis, with stand-ins for the executables, LibTorch and windeployqt).
#
# Installed tree (CMAKE_INSTALL_PREFIX is CPack's staging folder while packaging):
#   bin\ddpdesk.exe, ddpdesk-cli.exe, ddpdesk-worker.exe   app/*/CMakeLists.txt
#   bin\*.dll from LibTorch's lib\                         LibTorch's DLLs beside the executables
#   bin\Qt6*.dll, bin\platforms\, bin\translations\, ...   windeployqt, run on the staged executables
#   bin\msvcp140.dll, vcruntime140*.dll, ...               InstallRequiredSystemLibraries (app-local MSVC runtime)
#   bin\zlib1.dll                                          only when zlib is a DLL (vcpkg's x64-windows triplet)
#   README.txt, ddpdesk.ico

set(CPACK_GENERATOR "NSIS;ZIP")
# Written to CPackConfig.cmake escaped, so the NSIS strings below need no double escaping.
set(CPACK_VERBATIM_VARIABLES ON)
# LibTorch for Windows is x64 only: Program Files, not Program Files (x86), and a -win64 file name.
set(CPACK_SYSTEM_NAME "win64")
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
# Unversioned: CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL looks up the previous installation under this key, so a
# versioned key ("ddpdesk 0.1.0", CPack's default) would never find an older version, and Add/Remove Programs would
# list every version side by side.
set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY "DDP Desk")
set(CPACK_NSIS_PACKAGE_NAME "DDP Desk")
set(CPACK_NSIS_DISPLAY_NAME "DDP Desk ${PROJECT_VERSION}")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH OFF)
set(CPACK_NSIS_EXECUTABLES_DIRECTORY "bin")
set(CPACK_NSIS_MUI_ICON "${DDPDESK_REPO_ROOT}/resources/ddpdesk.ico")
set(CPACK_NSIS_MUI_UNIICON "${DDPDESK_REPO_ROOT}/resources/ddpdesk.ico")
set(CPACK_NSIS_INSTALLED_ICON_NAME "ddpdesk.ico") # Add/Remove Programs icon, relative to the install folder
set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
set(CPACK_NSIS_URL_INFO_ABOUT "${PROJECT_HOMEPAGE_URL}")
set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")

# The README: a Start menu entry next to the "DDP Desk" shortcut, and a "Show the README" box on the last page.
# NSIS has no README page of its own (CPACK_RESOURCE_FILE_README is used by the macOS generators only); as .txt it
# opens in Notepad on every machine.
install(FILES ${DDPDESK_REPO_ROOT}/README.md DESTINATION . RENAME README.txt)
install(FILES ${DDPDESK_REPO_ROOT}/resources/ddpdesk.ico DESTINATION .)
set(CPACK_NSIS_MENU_LINKS "README.txt" "DDP Desk README")
set(CPACK_NSIS_DEFINES "!define MUI_FINISHPAGE_SHOWREADME \"$INSTDIR\\README.txt\"
!define MUI_FINISHPAGE_SHOWREADME_TEXT \"Show the README\"
!define MUI_FINISHPAGE_SHOWREADME_NOTCHECKED")

# Without a license file CPack shows its own "No license provided." text on an "I Agree" page.
foreach(license IN ITEMS LICENSE LICENSE.txt LICENSE.md COPYING)
  if(EXISTS "${DDPDESK_REPO_ROOT}/${license}")
    set(CPACK_RESOURCE_FILE_LICENSE "${DDPDESK_REPO_ROOT}/${license}")
    break()
  endif()
endforeach()
if(NOT CPACK_RESOURCE_FILE_LICENSE)
  set(CPACK_NSIS_IGNORE_LICENSE_PAGE ON) # CMake 3.22+
endif()

# The MSVC runtime travels app-locally with the installer: no separate redistributable step for users.
set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION bin)
include(InstallRequiredSystemLibraries)

# LibTorch's DLLs (c10, torch_cpu, libiomp5md, uv, fbgemm, asmjit, ... and cu*/cudnn* for CUDA builds) beside the
# executables, as LibTorch's own examples do; its .lib import libraries stay out.
set(DDPDESK_TORCH_DLLS "")
if(TORCH_INSTALL_PREFIX)
  file(GLOB DDPDESK_TORCH_DLLS "${TORCH_INSTALL_PREFIX}/lib/*.dll")
endif()
if(DDPDESK_TORCH_DLLS)
  install(FILES ${DDPDESK_TORCH_DLLS} DESTINATION bin)
else()
  message(WARNING "DDP Desk: no DLL under '${TORCH_INSTALL_PREFIX}/lib' (TORCH_INSTALL_PREFIX): "
                  "the installer would lack LibTorch")
endif()

# FindZLIB reports the import library; a DLL build keeps its zlib1.dll in <prefix>/bin. A static zlib has none.
if(ZLIB_INCLUDE_DIR)
  file(GLOB DDPDESK_ZLIB_DLLS "${ZLIB_INCLUDE_DIR}/../bin/zlib*.dll")
  if(DDPDESK_ZLIB_DLLS)
    install(FILES ${DDPDESK_ZLIB_DLLS} DESTINATION bin)
  endif()
endif()

# The Qt runtime: windeployqt copies the Qt DLLs, plugins (platforms\qwindows.dll, styles, ...) and Qt's own
# translations (qtbase_ja.qm, which ui/language.cpp loads) next to the staged executables. --no-compiler-runtime:
# for MSVC it would add vc_redist.x64.exe, which nothing runs; InstallRequiredSystemLibraries covers the runtime.
set(ddpdesk_qt_bin_hints "")
if(QT6_INSTALL_PREFIX AND QT6_INSTALL_BINS)
  list(APPEND ddpdesk_qt_bin_hints "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}")
endif()
if(Qt6_DIR)
  list(APPEND ddpdesk_qt_bin_hints "${Qt6_DIR}/../../../bin") # <Qt>/lib/cmake/Qt6 -> <Qt>/bin
endif()
find_program(DDPDESK_WINDEPLOYQT windeployqt HINTS ${ddpdesk_qt_bin_hints}
             DOC "Qt's windeployqt, run by the install step on the staged executables")
if(DDPDESK_WINDEPLOYQT)
  install(CODE "
    set(ddpdesk_bin \"\${CMAKE_INSTALL_PREFIX}/bin\")
    message(STATUS \"windeployqt: Qt runtime into \${ddpdesk_bin}\")
    execute_process(COMMAND \"${DDPDESK_WINDEPLOYQT}\" $<IF:$<CONFIG:Debug>,--debug,--release> --no-compiler-runtime
                            \"\${ddpdesk_bin}/ddpdesk.exe\" \"\${ddpdesk_bin}/ddpdesk-cli.exe\"
                    RESULT_VARIABLE ddpdesk_rc)
    if(NOT ddpdesk_rc EQUAL 0)
      message(FATAL_ERROR \"windeployqt failed (\${ddpdesk_rc}): the package would lack the Qt runtime\")
    endif()")
else()
  message(WARNING "DDP Desk: windeployqt not found (set DDPDESK_WINDEPLOYQT): installing/packaging will stop")
  install(CODE "message(FATAL_ERROR \"windeployqt was not found (set DDPDESK_WINDEPLOYQT to <Qt>/bin/windeployqt.exe): the package would lack the Qt runtime\")")
endif()
