# Packaging: a Debian package on Linux, an NSIS installer on Windows (see installer/windows/build-installer.ps1).
include(GNUInstallDirs)

set(CPACK_PACKAGE_NAME "ddpdesk")
set(CPACK_PACKAGE_VENDOR "DDP Desk")
set(CPACK_PACKAGE_CONTACT "DDP Desk maintainers <maintainers@ddpdesk.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "DDP Desk")
set(CPACK_RESOURCE_FILE_README "${PROJECT_SOURCE_DIR}/README.md")
set(CPACK_PACKAGE_EXECUTABLES "ddpdesk;DDP Desk")
set(CPACK_STRIP_FILES ON)

if(EXISTS ${PROJECT_SOURCE_DIR}/resources/ddpdesk.desktop AND NOT WIN32)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/ddpdesk.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
endif()
foreach(icon IN ITEMS ddpdesk.svg icons/ddpdesk.svg icons/app.svg)
  if(EXISTS ${PROJECT_SOURCE_DIR}/resources/${icon} AND NOT WIN32)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/${icon} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
            RENAME ddpdesk.svg)
    break()
  endif()
endforeach()
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

if(WIN32)
  set(CPACK_GENERATOR "NSIS;ZIP")
  set(CPACK_NSIS_DISPLAY_NAME "DDP Desk ${PROJECT_VERSION}")
  set(CPACK_NSIS_PACKAGE_NAME "DDP Desk")
  set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
  set(CPACK_NSIS_MODIFY_PATH OFF)
  set(CPACK_NSIS_EXECUTABLES_DIRECTORY "bin")
  set(CPACK_NSIS_MUI_ICON "${PROJECT_SOURCE_DIR}/resources/ddpdesk.ico")
  set(CPACK_NSIS_CREATE_ICONS_EXTRA
      "CreateShortCut '$SMPROGRAMS\\\\$STARTMENU_FOLDER\\\\DDP Desk.lnk' '$INSTDIR\\\\bin\\\\ddpdesk.exe'")
  set(CPACK_NSIS_DELETE_ICONS_EXTRA "Delete '$SMPROGRAMS\\\\$START_MENU\\\\DDP Desk.lnk'")
  # The MSVC runtime travels with the installer (no separate redistributable step for users).
  set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION bin)
  include(InstallRequiredSystemLibraries)
  # LibTorch DLLs next to the executables, as LibTorch's own examples do.
  if(TORCH_INSTALL_PREFIX)
    file(GLOB DDPDESK_TORCH_DLLS "${TORCH_INSTALL_PREFIX}/lib/*.dll")
    install(FILES ${DDPDESK_TORCH_DLLS} DESTINATION bin)
  endif()
  # Qt runtime: windeployqt fills the staging bin folder during packaging.
  find_program(DDPDESK_WINDEPLOYQT windeployqt HINTS "${Qt6_DIR}/../../../bin")
  if(DDPDESK_WINDEPLOYQT)
    install(CODE "execute_process(COMMAND \"${DDPDESK_WINDEPLOYQT}\" --release --no-translations --compiler-runtime
                    \"\${CMAKE_INSTALL_PREFIX}/bin/ddpdesk.exe\" \"\${CMAKE_INSTALL_PREFIX}/bin/ddpdesk-cli.exe\")")
  endif()
else()
  set(CPACK_GENERATOR "DEB")
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # ddpdesk_<version>_amd64.deb
  set(CPACK_DEBIAN_PACKAGE_SECTION "science")
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # Qt and LibTorch runtime packages found by dpkg-shlibdeps
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist, python3-torch, openmpi-bin")
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
endif()

include(CPack)
