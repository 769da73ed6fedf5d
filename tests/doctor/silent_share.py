"""A network share whose server stopped answering, made for real: a FUSE file system that is mounted and then
never answers the kernel (not even its INIT request), so every stat() or open() under the mount point blocks -
as on an SMB or NFS share whose server went down. Standard library only (ctypes mount(2) on /dev/fuse).

    silent_share.py MOUNTPOINT    prints "ready" once mounted; exits 3 with "unavailable: WHY" on stderr when FUSE
                                  cannot be used here (no /dev/fuse, no right to mount)

On SIGTERM/SIGINT (or stdin closing) it closes /dev/fuse, which aborts the connection so blocked callers get
ENOTCONN at once, and detaches the mount, leaving the mount point an empty folder again.
"""
import ctypes
import os
import signal
import sys
import threading

MNT_DETACH = 2


def main():
    mountpoint = os.path.abspath(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        fd = os.open("/dev/fuse", os.O_RDWR)
    except OSError as e:
        print("unavailable: /dev/fuse: %s" % e.strerror, file=sys.stderr, flush=True)
        return 3
    options = "fd=%d,rootmode=40000,user_id=%d,group_id=%d" % (fd, os.getuid(), os.getgid())
    if libc.mount(b"ddpdesk-silent-share", mountpoint.encode(), b"fuse", 0, options.encode()) != 0:
        print("unavailable: mount: %s" % os.strerror(ctypes.get_errno()), file=sys.stderr, flush=True)
        return 3

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    # The test closing its end of our stdin also ends the share, so a killed test leaves no hung mount.
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    print("ready", flush=True)
    done.wait(300)
    os.close(fd)  # aborts the connection: whoever is blocked in it gets ENOTCONN
    libc.umount2(mountpoint.encode(), MNT_DETACH)
    return 0


if __name__ == "__main__":
    sys.exit(main())
