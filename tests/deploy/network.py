"""Machines for the deployment tests: network namespaces on a bridge of the
test's own, with addresses of its own (10.213.N.0/24, N free on this machine),
the test process itself at .254 on the bridge. Each host has one link, which
a test can take down as a pulled cable would, and processes started in it."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import pytest

IP = shutil.which("ip") or "/usr/sbin/ip"
GATEWAY = 254


def need_namespaces() -> None:
    """Skip where namespaces cannot be made: not root, or no iproute2."""
    if not Path(IP).exists():
        pytest.skip("the hosts are network namespaces: iproute2's ip is missing")
    probe = f"pbem-probe-{uuid.uuid4().hex[:6]}"
    made = subprocess.run([IP, "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"no network namespaces here (`ip netns add`: {made.stderr.strip()})")
    subprocess.run([IP, "netns", "del", probe], check=True)


def ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True, text=True)


def free_subnet() -> int:
    """A third octet N with no 10.213.N.x address on this machine yet."""
    used = subprocess.run([IP, "-4", "-o", "addr"], capture_output=True, text=True).stdout
    free = [n for n in range(1, 250) if f"10.213.{n}." not in used]
    return random.choice(free)


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, signum: int, timeout: float) -> int:
        """Stop as systemd's KillMode=mixed does: the signal to the main process,
        and, after `timeout`, SIGKILL to whatever of its group is left."""
        if self.popen.poll() is None:
            self.popen.send_signal(signum)
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"{self.name} did not stop within {timeout} s:\n{self.output()[-3000:]}"
            ) from None
        finally:
            self.kill()  # its children, if any outlived it

    def kill(self) -> None:
        with suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)


@dataclass
class Host:
    name: str
    namespace: str
    address: str
    link: str  # the bridge's end of the host's cable
    logs: Path
    processes: list[Process] = field(default_factory=list)

    def start(
        self, name: str, argv: list[str], env: dict[str, str], cwd: Path | None = None
    ) -> Process:
        """`argv` run in this host's namespace, in a process group of its own."""
        log = self.logs / f"{self.name}-{name}.log"
        with log.open("wb") as out:
            popen = subprocess.Popen(
                [IP, "netns", "exec", self.namespace, *argv],
                env=env,
                cwd=cwd,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process = Process(f"{name} on {self.name}", popen, log)
        self.processes.append(process)
        return process

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [IP, "netns", "exec", self.namespace, *argv], capture_output=True, text=True
        )

    def unplug(self) -> None:
        ip("link", "set", self.link, "down")

    def plug(self) -> None:
        ip("link", "set", self.link, "up")


@dataclass
class Network:
    subnet: int
    bridge: str
    logs: Path
    hosts: dict[str, Host] = field(default_factory=dict)

    @property
    def gateway(self) -> str:
        """The test process's own address on the bridge."""
        return f"10.213.{self.subnet}.{GATEWAY}"


@contextmanager
def network(names: list[str], logs: Path) -> Iterator[Network]:
    """Hosts `names` (addresses .1, .2 ... in that order) on one bridge; every
    process, namespace and link is gone afterwards, however the test ended."""
    tag = uuid.uuid4().hex[:5]
    subnet = free_subnet()
    made = Network(subnet, f"pb{tag}", logs)
    with ExitStack() as cleanup:
        ip("link", "add", made.bridge, "type", "bridge")
        cleanup.callback(ip, "link", "del", made.bridge)
        ip("addr", "add", f"{made.gateway}/24", "dev", made.bridge)
        ip("link", "set", made.bridge, "up")
        for number, name in enumerate(names, start=1):
            namespace, link = f"pbem-{tag}-{name}", f"pv{tag}{number}"
            ip("netns", "add", namespace)
            # Deleting the namespace deletes its end of the cable and so both.
            cleanup.callback(ip, "netns", "del", namespace)
            ip("link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            ip("link", "set", link, "master", made.bridge, "up")
            address = f"10.213.{subnet}.{number}"
            ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", namespace, "link", "set", "eth0", "up")
            ip("-n", namespace, "link", "set", "lo", "up")
            host = Host(name, namespace, address, link, logs)
            made.hosts[name] = host
            cleanup.callback(stop_all, host)
        yield made


def stop_all(host: Host) -> None:
    for process in reversed(host.processes):
        process.kill()


def wait_for_log(process: Process, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in process.output():
            return
        if process.popen.poll() is not None:
            raise AssertionError(f"{process.name} ended:\n{process.output()[-3000:]}")
        time.sleep(0.2)
    raise AssertionError(f"{process.name} never said {text!r}:\n{process.output()[-3000:]}")
