# CPack settings, read by the top CMakeLists.txt just before include(CPack). scripts/package
# builds the Linux packages (DEB and TGZ) and checks them; the Windows and macOS settings
# below are written for `cpack -G NSIS` / `cpack -G WIX` on Windows and `cpack -G DragNDrop`
# on macOS and are not built by our scripts (see installer/README.md).

set(CPACK_PACKAGE_NAME hourglass)
# All of it: CPack's default keeps major.minor.patch and drops a fourth component.
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "Hourglass developers")
set(CPACK_PACKAGE_CONTACT "${HOURGLASS_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop job scheduler with DAG chains and second-precise cron")
# Debian shows it as written (an empty line separates paragraphs): lines short enough
# for its tools.
set(CPACK_PACKAGE_DESCRIPTION [[
Hourglass schedules programs, shell commands, SQL and HTTP calls as chains
of tasks with dependencies, runs them with an in-process engine, and shows
their runs and logs live. It reads cron in the Unix, seconds, Quartz and
pg_timetable dialects and keeps its data in SQLite or in a PostgreSQL
database that several engines share.

The hourglass command line does everything the window does, and a systemd
user service runs the engine on machines without a desktop.]])
set(CPACK_PACKAGE_INSTALL_DIRECTORY Hourglass)
# The Start menu entry of the Windows installers.
set(CPACK_PACKAGE_EXECUTABLES hourglass Hourglass)
set(CPACK_STRIP_FILES ON)
# Settings of one generator: the Linux archive's layout.
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/cpackgenerator.cmake")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")

if(WIN32)
    set(CPACK_GENERATOR "NSIS;ZIP")
elseif(APPLE)
    set(CPACK_GENERATOR "DragNDrop")
else()
    set(CPACK_GENERATOR "DEB;TGZ")
endif()

# --- Debian ----------------------------------------------------------------------------------
# The file name says version and architecture (hourglass_0.1.0_amd64.deb), as Debian's do.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Shared libraries come from dpkg-shlibdeps. It cannot see what Qt loads at run time:
# - the SQL drivers are plugins. SQLite is the default store; PostgreSQL serves the shared
#   store and the pg_timetable and pgAgent consoles; MySQL only DolphinScheduler on MariaDB
#   or MySQL and SQL tasks that target them;
# - the platform plugin (xcb) is in libqt6gui6, which shlibdeps finds anyway;
# - the bundled SVG toolbar icons need Qt's SVG icon engine, a plugin in libqt6svg6.
# - connection passwords live in the OS keychain through QtKeychain (found by shlibdeps); it
#   needs a Secret Service at run time: gnome-keyring or KWallet. Without one, passwords go
#   to ~/.pgpass and ~/.my.cnf, so it is only recommended.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libqt6sql6-psql, gnome-keyring | kwalletmanager")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libqt6sql6-mysql")

# --- Windows (NSIS; WiX through CPACK_WIX_*) -------------------------------------------------
set(CPACK_NSIS_PACKAGE_NAME "Hourglass")
set(CPACK_NSIS_DISPLAY_NAME "Hourglass ${PROJECT_VERSION}")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\hourglass.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${PROJECT_HOMEPAGE_URL}")
set(CPACK_NSIS_CONTACT "${HOURGLASS_MAINTAINER}")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH ON) # offers to put hourglass.exe on PATH for the command line
set(CPACK_NSIS_MUI_FINISHPAGE_RUN hourglass.exe)
# An upgrade code that never changes lets WiX replace an older Hourglass instead of adding one.
set(CPACK_WIX_UPGRADE_GUID "6C1F3A52-5E0B-4C59-9D43-0C2B8D3F7A41")
set(CPACK_WIX_PROGRAM_MENU_FOLDER Hourglass)

# --- macOS (DragNDrop: a disk image with Hourglass.app and a link to /Applications) ----------
set(CPACK_DMG_VOLUME_NAME "Hourglass ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT UDZO)

# Windows and macOS have no Qt in the system: the packages carry it. Qt's deployment script
# (windeployqt / macdeployqt underneath) copies the libraries and plugins the program uses,
# the SQL drivers included, next to it at install time.
if(WIN32 OR APPLE)
    if(APPLE)
        set_target_properties(hourglass PROPERTIES
            MACOSX_BUNDLE ON
            MACOSX_BUNDLE_BUNDLE_NAME Hourglass
            MACOSX_BUNDLE_GUI_IDENTIFIER org.hourglass.Hourglass
            MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
            MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}")
    endif()
    qt_generate_deploy_app_script(TARGET hourglass FILENAME_VARIABLE hourglass_deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
    install(SCRIPT "${hourglass_deploy_script}")
endif()
