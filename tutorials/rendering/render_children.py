"""The host's PDF render children: ``RENDER_LIMIT`` processes for the whole host, under one
supervisor, and gone when the processes that started them are gone.

A render child grows to well over a hundred megabytes. Kept per web worker, a host held
``workers × RENDER_LIMIT`` of them although the render limit lets only ``RENDER_LIMIT``
render at once. So the host has one set::

    starter: gunicorn's arbiter (``on_starting`` in gunicorn.conf.py), so that every worker
    │        it forks uses the same set; elsewhere (runserver, a management command, the
    │        tests) the first process that renders
    └── supervisor (``python -m tutorials.rendering.render_children``, nice 19): loads WeasyPrint
        │   and the fonts once, then forks the children and forks a new one for each that ends
        ├── child 1  each takes one render from the supervisor's socket (an abstract
        └── child N  Unix socket; only processes of the same user are answered), then ends

The children are forked, so WeasyPrint's code and fonts are shared pages, counted once.
Each child renders once and ends, and a fresh one takes its place: a render starts from the
supervisor's memory, never from what an earlier render left behind (freed memory is seldom
given back), and a fork costs milliseconds.

How each dies with its parent, and why these means:

* **the supervisor** reads a pipe (the lifeline) whose write end only the starter holds,
  and the web workers forked from it. The kernel closes that end when the last of them
  exits, however it exits (``SIGKILL`` too), and the supervisor sees end-of-file at once.
  Not ``PR_SET_PDEATHSIG``: it fires when the *thread* that started the child ends, and a
  render may start the supervisor from a request's thread. Not polling ``getppid()``:
  under gunicorn the workers use the supervisor after the arbiter is gone, until they stop.
* **the children** set ``PR_SET_PDEATHSIG`` (``SIGKILL``) right after the fork: their
  parent is the single-threaded supervisor, whose one thread is the process; they then
  check that it did not die before the ``prctl``.
* **a web worker killed mid-render** owns no process; the child rendering for it sees its
  connection end and exits at once (so does one whose worker stopped waiting, past
  ``RENDER_TIMEOUT``), and a fresh child takes its place. The render limit's lease frees
  itself as before (:mod:`tutorials.rendering.render_limit`).

This module imports nothing of Django: gunicorn's arbiter starts the supervisor without
loading the site.
"""

from __future__ import annotations

import ctypes
import logging
import os
import secrets
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection

from tutorials.rendering import pdf_worker

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1
#: a page in both fonts and both weights: rendered once by the supervisor so that the
#: children it forks find the fonts loaded (shared, not loaded again in each)
_WARM_HTML = ('<html lang="en"><body style="font-family: \'Noto Sans\', \'Noto Sans CJK JP\'">'
              '<p>Captain Dice <b>キャプテンダイス</b></p><p lang="ja" style="font-family: '
              '\'Noto Sans CJK JP\'">サイコロ <b>バトル</b></p></body></html>')


class ChildGone(Exception):
    """The child died before it answered (killed, out of memory): the render may be tried again."""


# --- the starter's side -----------------------------------------------------------------------
@dataclass
class Host:
    """A running set of render children: the supervisor's socket ``address``, and the
    lifeline's write end (held open for as long as the children are to live)."""

    address: str
    lifeline: int
    children: int
    supervisor: int
    owner: int  # the process that started it (gunicorn's workers use their arbiter's)


_HOST: Host | None = None
_LOCK = threading.Lock()


def start(children: int) -> Host:
    """Start a supervisor with ``children`` render children for this process and the
    processes it forks from now on; the set started before, if any, is left to end."""
    global _HOST
    address = f"\0captain-render-{os.getpid()}-{secrets.token_hex(6)}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(64)
    lifeline_read, lifeline_write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tutorials.rendering.render_children", str(children),
             str(listener.fileno()), str(lifeline_read)],
            pass_fds=(listener.fileno(), lifeline_read), stdin=subprocess.DEVNULL)
    finally:
        listener.close()
        os.close(lifeline_read)
    _HOST = Host(address, lifeline_write, children, process.pid, os.getpid())
    return _HOST


def start_once(children: int) -> Host:
    """This process's set of render children (inherited from the arbiter under gunicorn),
    started now if there is none yet."""
    with _LOCK:
        return _HOST or start(children)


def _connect(host: Host) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(host.address)
    except OSError:
        sock.close()
        raise
    return sock


class Pending:
    """A render sent to a child; :meth:`result` waits for it."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def result(self, timeout: float) -> tuple[bytes, tuple[str, ...], int, int]:
        """``(pdf, warnings, child's process id, its niceness)``; :class:`TimeoutError` when
        not done within ``timeout`` seconds (ask again), :class:`ChildGone` when the child
        died."""
        if not self.connection.poll(timeout):
            raise TimeoutError()
        try:
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            self.close()
            raise ChildGone() from None
        self.close()
        if kind == "error":
            raise RuntimeError(f"the PDF render failed in its child: {value}")
        return value

    def close(self) -> None:
        """Stop waiting: the child sees the connection end and stops rendering."""
        self.connection.close()


def submit(html: str, resources: Mapping[str, tuple[bytes, str]], children: int) -> Pending:
    """Send a render to the host's children (started first if this process has none, or
    started anew if its supervisor is gone)."""
    global _HOST
    host = start_once(children)
    try:
        sock = _connect(host)
    except OSError:
        with _LOCK:
            if _HOST is host:
                logger.warning("the PDF render children are gone; starting new ones")
                _HOST = None
        sock = _connect(start_once(children))
    connection = Connection(sock.detach())
    connection.send((html, dict(resources)))
    return Pending(connection)


# --- the supervisor -----------------------------------------------------------------------------
def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        os._exit(1)


def _same_user(sock: socket.socket) -> bool:
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                          struct.calcsize("3i")))
    return uid == os.getuid()


def _serve(listener: socket.socket) -> None:
    """A child's life: one render, then the child ends (the supervisor forks a fresh one).
    Should the web worker go away meanwhile (killed, or it stopped waiting), the child ends
    at once rather than render for nobody."""
    while True:
        sock, _address = listener.accept()
        if _same_user(sock):
            break
        sock.close()
    connection = Connection(sock.detach())
    try:
        html, resources = connection.recv()
        threading.Thread(target=_end_when_closed, args=(connection.fileno(),), daemon=True).start()
        try:
            answer = ("ok", pdf_worker.render(html, resources))
        except Exception as error:  # the web worker raises it
            answer = ("error", f"{type(error).__name__}: {error}")
        connection.send(answer)
    except (EOFError, OSError):
        pass  # the web worker went away before it sent the render, or before the answer


def _end_when_closed(fd: int) -> None:
    """The web worker sends one render and nothing more: anything readable after it is
    end-of-file, the worker gone."""
    select.select([fd], [], [])
    os._exit(0)


def _fork_child(listener: socket.socket) -> int:
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _die_with_parent()
        if os.getppid() == parent:
            _serve(listener)
    finally:
        os._exit(0)


def supervise(children: int, listener: socket.socket, lifeline: int) -> None:
    """Keep ``children`` render children until the lifeline reaches end-of-file; a child
    that ends is replaced at once (``SIGCHLD`` wakes the supervisor)."""
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the starter's to handle
    pdf_worker.lower_priority()
    pdf_worker.render(_WARM_HTML, {})
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_args: None)
    alive: set[int] = set()
    while True:
        while len(alive) < children:
            alive.add(_fork_child(listener))
        readable, _, _ = select.select([lifeline, woken], [], [], 5.0)
        if lifeline in readable:
            return  # nothing is ever written: end-of-file, the starter is gone
        with suppress(BlockingIOError):
            os.read(woken, 512)
        while alive:
            pid, _status = os.waitpid(-1, os.WNOHANG)
            if not pid:
                break
            alive.discard(pid)


if __name__ == "__main__":
    _children, _listener, _lifeline = (int(arg) for arg in sys.argv[1:4])
    # ended with the supervisor's exit: the children die by PR_SET_PDEATHSIG
    supervise(_children, socket.socket(fileno=_listener), _lifeline)
