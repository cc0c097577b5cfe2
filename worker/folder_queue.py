"""The embedded default's queue: kombu's filesystem transport, with each
message written whole before a reader can see it.

Kombu creates a message's file under its final name and then writes into it,
so a worker in another thread or process may take the file while it is
still empty and fail to decode it ("Unrecoverable error: JSONDecodeError"):
the worker stops and the message is gone, so its task waits for the sweep
that sends it again (a bot game of `pbem demo` stalled). Here the message is
written under a name no queue reads and then renamed, which is atomic on
one filesystem: a reader finds the whole message or none."""

from __future__ import annotations

import os
import tempfile
import uuid
from time import monotonic
from typing import Any, ClassVar

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]  # kombu: the filesystem Channel names its argument apart from its base
        # Kombu's own name: the clock first, so a queue is read about in order.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        folder = self.data_folder_out
        # A reader takes the names whose text after their first dot is
        # "<queue>.msg"; this one's first dot is its only one.
        try:
            handle, part = tempfile.mkstemp(prefix=".part-", dir=folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(dumps(payload).encode())
                os.replace(part, os.path.join(folder, name))
            except OSError:
                os.unlink(part)  # a full disk leaves no part behind
                raise
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc


class Transport(filesystem.Transport):
    """Routing kept per folder: kombu keeps one state for every folder of a
    process, so a queue bound in one folder counted as bound in the next,
    whose binding was then never written, and messages sent there were
    dropped (a test process makes apps on several folders)."""

    Channel = Channel
    states: ClassVar[dict[str, virtual.BrokerState]] = {}

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        folder = client.transport_options.get("data_folder_in", "data_in")
        self.state = self.states.setdefault(os.path.abspath(folder), virtual.BrokerState())
