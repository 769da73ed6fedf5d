# Packaging: a Debian package on Linux, an NSIS installer (and a ZIP) on Windows
# (see installer/windows/build-installer.ps1).
#
# Included by the top-level CMakeLists.txt, and by tests/packaging/nsis, which configures a stand-in payload with
# CMAKE_SYSTEM_NAME=Windows so that the WIN32 branch below runs on Linux and makensis compiles the installer it
# describes (packaging.nsis_installer). Paths are therefore relative to this file, not to PROJECT_SOURCE_DIR.
include(GNUInstallDirs)
get_filename_component(DDPDESK_REPO_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

set(CPACK_PACKAGE_NAME "ddpdesk")
set(CPACK_PACKAGE_VENDOR "DDP Desk")
set(CPACK_PACKAGE_CONTACT "DDP Desk maintainers <maintainers@ddpdesk.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "DDP Desk")
set(CPACK_RESOURCE_FILE_README "${DDPDESK_REPO_ROOT}/README.md")
# "<target>;<label>": the Start menu shortcut "DDP Desk" to bin\ddpdesk.exe. Do not add another one through
# CPACK_NSIS_CREATE_ICONS_EXTRA: it would be a second shortcut with the same name.
set(CPACK_PACKAGE_EXECUTABLES "ddpdesk;DDP Desk")
set(CPACK_STRIP_FILES ON)

if(WIN32)
  include(${CMAKE_CURRENT_LIST_DIR}/windows/windows_package.cmake)
else()
  # The desktop entry and the icons are installed by app/ddpdesk.
  install(FILES ${DDPDESK_REPO_ROOT}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
  set(CPACK_GENERATOR "DEB")
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # ddpdesk_<version>_amd64.deb
  set(CPACK_DEBIAN_PACKAGE_SECTION "science")
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # Qt and LibTorch runtime packages found by dpkg-shlibdeps
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, python3-torch, openmpi-bin")
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
endif()

include(CPack)
