# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE).
# The Linux archive holds the .deb's tree, /usr included, so the files that name installed
# paths (the systemd unit's ExecStart) are right there too: unpack it with
#   sudo tar -xzf hourglass-VERSION-Linux.tar.gz --strip-components=1 -C /
# A relocatable tree cannot say where its program will be.
if(CPACK_GENERATOR STREQUAL "TGZ")
    set(CPACK_SET_DESTDIR ON)
    set(CPACK_INSTALL_PREFIX /usr)
endif()
