"""A throwaway PostgreSQL server for the tests and the benchmarks: a temporary data directory (on the RAM disk
``/dev/shm`` when there is one), a Unix socket in it (no TCP port to collide with), settings for speed over
durability, stopped and deleted at the end.

The binaries come from, in order: ``$FUDABA_PG_BINDIR``; the ``pgserver`` package (a dev dependency that ships
them, so ``pip install -e '.[dev]'`` is enough on a clean machine); ``pg_ctl`` on ``PATH``; Debian's
``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses to run as root, so as root the server runs as an
unprivileged user (``$FUDABA_PG_USER``, else ``nobody``), which owns the data directory.

    server = PgServer.start_new()        # raises PgUnavailable with the reason when none can be started
    url = server.url("postgres")         # postgresql://postgres@/postgres?host=/dev/shm/fudaba-pg-…
    server.stop(); server.start()        # a restart, for reconnection tests
    server.destroy()
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib.util
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",  # a test server: nothing it holds must survive a crash of the machine
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "64MB",
    "max_pred_locks_per_transaction": "256",
    "log_min_messages": "warning",
}


class PgUnavailable(RuntimeError):
    """No PostgreSQL server could be started here."""


def _candidates() -> Iterator[Path]:
    env = os.environ.get("FUDABA_PG_BINDIR")
    if env:
        yield Path(env)
    spec = importlib.util.find_spec("pgserver")
    for location in (spec.submodule_search_locations or []) if spec else []:
        yield Path(location) / "pginstall" / "bin"
    on_path = shutil.which("pg_ctl")
    if on_path:
        yield Path(on_path).resolve().parent

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.name))

    yield from sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)


def _tmp_root() -> str | None:
    """Where the data directory goes: ``$FUDABA_PG_TMP``, else a RAM disk when there is one with room (creating a
    database from the template takes 15 ms there, 300 ms on this machine's disk), else the temporary directory."""
    if os.environ.get("FUDABA_PG_TMP"):
        return os.environ["FUDABA_PG_TMP"]
    shm = "/dev/shm"
    with contextlib.suppress(OSError):
        stat = os.statvfs(shm)
        if os.access(shm, os.W_OK) and stat.f_bavail * stat.f_frsize > 2 << 30:
            return shm
    return None


def _run_as() -> pwd.struct_passwd | None:
    """The user the server runs as: None for ourselves, or an unprivileged one when we are root."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("FUDABA_PG_USER", "nobody")
    try:
        return pwd.getpwnam(name)
    except KeyError as exc:
        raise PgUnavailable(
            f"running as root, and there is no user {name!r} to run PostgreSQL as (set FUDABA_PG_USER)"
        ) from exc


def _reap_stale() -> None:
    """Stop and delete the servers of test sessions that died without their teardown (killed): a server left on
    the RAM disk would hold its memory until the machine restarts."""
    root = Path(_tmp_root() or tempfile.gettempdir())
    for base in root.glob("fudaba-pg-*"):
        try:
            owner = int((base / "owner.pid").read_text())
            os.kill(owner, 0)
            continue  # its session is alive
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue  # not ours to judge (no owner written yet, or another user's)
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((base / "data" / "postmaster.pid").read_text().split()[0])
            # Only that server: a pid may have been reused since, so it must be a postgres on this directory.
            if str(base / "data") in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
                os.kill(pid, 9)
        shutil.rmtree(base, ignore_errors=True)


class PgServer:
    def __init__(self, bindir: Path, base: Path, user: pwd.struct_passwd | None) -> None:
        self.bindir = bindir
        self.base = base
        self.data = base / "data"
        self.log = base / "server.log"
        self.user = user
        self.running = False

    # ------------------------------------------------------------------ commands

    def _cmd(self, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        result = subprocess.run(
            args, capture_output=True, text=True, timeout=timeout, env=env, cwd=self.base, check=False, **extra
        )
        if check and result.returncode != 0:
            raise PgUnavailable(
                f"{' '.join(args[:2])} failed ({result.returncode}): {result.stderr.strip()}{self._log_tail()}"
            )
        return result

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return "\nserver log:\n" + "\n".join(self.log.read_text(errors="replace").splitlines()[-15:])
        return ""

    @classmethod
    def start_new(cls) -> PgServer:
        """initdb a temporary cluster with the first binaries that run here, start it, and return it."""
        user = _run_as()
        _reap_stale()
        tried: list[str] = []
        for bindir in _candidates():
            if not (bindir / "postgres").exists() or not (bindir / "initdb").exists():
                continue
            base = Path(tempfile.mkdtemp(prefix="fudaba-pg-", dir=_tmp_root()))
            server = cls(bindir, base, user)
            (base / "owner.pid").write_text(str(os.getpid()))
            try:
                if user is not None:
                    os.chown(base, user.pw_uid, user.pw_gid)
                server._usable_bindir()
                server._initdb()
                server.start()
            except (PgUnavailable, OSError, subprocess.SubprocessError) as exc:
                tried.append(f"{bindir}: {exc}")
                server.destroy()
                continue
            atexit.register(server.destroy)  # should the session end without its fixture's teardown
            return server
        raise PgUnavailable("no PostgreSQL binaries found that run here" if not tried else "; ".join(tried))

    def _usable_bindir(self) -> None:
        """Make sure the server's user can run the binaries; a copy of them in the temporary directory otherwise
        (a virtualenv under a home directory the unprivileged user cannot enter)."""
        try:
            self._cmd(str(self.bindir / "initdb"), "--version")
            return
        except (PgUnavailable, PermissionError):
            if self.user is None:
                raise
        # pgserver's binaries find their shared libraries at $ORIGIN/../../../pgserver.libs: keep that layout.
        install = self.bindir.parent  # …/site-packages/pgserver/pginstall
        site = install.parent.parent
        copy = self.base / "site"
        shutil.copytree(install, copy / install.relative_to(site), symlinks=True)
        for libs in site.glob(f"{install.parent.name}.libs"):
            shutil.copytree(libs, copy / libs.name, symlinks=True)
        for path in [copy, *copy.rglob("*")]:
            if path.is_dir() or os.access(path, os.X_OK):
                path.chmod(path.stat().st_mode | 0o755)
            else:
                path.chmod(path.stat().st_mode | 0o644)
        self.bindir = copy / install.relative_to(site) / "bin"
        self._cmd(str(self.bindir / "initdb"), "--version")

    def _initdb(self) -> None:
        self._cmd(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        settings = dict(SETTINGS, unix_socket_directories=f"'{self.base}'")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\n# fudaba tests\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))

    def start(self) -> None:
        self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients, roll their transactions back; ``immediate``: as a crash)."""
        self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")
        self.running = False

    def destroy(self) -> None:
        if self.running:
            with contextlib.suppress(Exception):
                self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.base}"

    def version(self) -> str:
        return self._cmd(str(self.bindir / "postgres"), "--version").stdout.strip()


TEMPLATE = "fudaba_template"


class PgDatabases:
    """The session's server, and fresh databases on it."""

    def __init__(self, server: PgServer) -> None:
        self.server = server
        self._names = itertools.count(1)

    def url(self, name: str) -> str:
        return self.server.url(name)

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.server.url("postgres"))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    def build_template(self) -> None:
        """The template every test's database copies: an empty database the storage has migrated."""
        from bot.storage import Database

        async def build() -> None:
            await self._admin(f"DROP DATABASE IF EXISTS {TEMPLATE}", f"CREATE DATABASE {TEMPLATE}")
            db = await Database.open(self.url(TEMPLATE))
            await db.close()

        loop = asyncio.new_event_loop()  # not asyncio.run: it would unset the thread's event loop when done
        try:
            loop.run_until_complete(build())
        finally:
            loop.close()

    async def create(self, *, migrated: bool = True) -> str:
        """A new database (migrated, or empty) for one test; :meth:`drop` it afterwards."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return name

    async def drop(self, name: str) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
