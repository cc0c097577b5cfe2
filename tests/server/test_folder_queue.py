"""The embedded default's queue folder (worker.folder_queue): a reader never
takes a message its writer has not finished."""

from __future__ import annotations

import pytest
from kombu import Connection
from kombu.exceptions import ChannelError

import worker.folder_queue
from pbem import create_app
from worker.celery_app import FOLDER_POLL_SECONDS, celery_settings


def folder_connection(folder) -> Connection:
    folder.mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }
    return Connection(
        "filesystem://", transport=worker.folder_queue.Transport, transport_options=options
    )


def test_the_embedded_default_uses_the_folder_queue(tmp_path):
    settings = celery_settings(
        {
            "PBEM_BROKER_URL": "filesystem://localhost/",
            "PBEM_BROKER_FOLDER": str(tmp_path / "broker"),
            "PBEM_TASK_QUEUE": "tasks",
            "PBEM_BOT_QUEUE": "bots",
            "PBEM_NOTICE_QUEUE": "notices",
            "PBEM_SWEEP_SECONDS": 60,
        }
    )
    assert settings["broker_transport"] == "worker.folder_queue:Transport"


def test_a_worker_on_the_folder_queue_looks_ten_times_a_second(tmp_path):
    """Kombu's own second held each hop of a turn up to a second."""
    app = create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "PBEM_BROKER_URL": "filesystem://localhost/",
            "PBEM_BROKER_FOLDER": str(tmp_path / "broker"),
        }
    )
    with app.extensions["celery"].connection_for_read() as connection:
        assert connection.transport.polling_interval == FOLDER_POLL_SECONDS == 0.1


def test_messages_come_out_whole(tmp_path):
    with folder_connection(tmp_path / "queue") as connection:
        queue = connection.SimpleQueue("tasks")
        for number in range(5):
            queue.put({"number": number, "text": "x" * 100_000})
        taken = [queue.get(timeout=1) for _ in range(5)]
        assert sorted(message.payload["number"] for message in taken) == list(range(5))
        assert all(len(message.payload["text"]) == 100_000 for message in taken)
        with pytest.raises(queue.Empty):
            queue.get(block=False)


def test_each_folder_is_a_broker_of_its_own(tmp_path):
    """Kombu's routing state was one per process: the queue bound in the
    first folder counted as bound in the second, and a message sent there
    was dropped."""
    for name in ("first", "second"):
        with folder_connection(tmp_path / name) as connection:
            queue = connection.SimpleQueue("tasks")
            queue.put({"folder": name})
            assert queue.get(timeout=1).payload == {"folder": name}
            assert (tmp_path / name / "control" / "tasks.exchange").exists()


def test_a_message_being_written_is_not_there_for_a_reader(tmp_path, monkeypatch):
    """Kombu's own transport made the file first and wrote it after: a reader
    in between got an empty message, its worker stopped and the task was lost."""
    with (
        folder_connection(tmp_path / "queue") as writing,
        folder_connection(tmp_path / "queue") as reading,
    ):
        reader = reading.SimpleQueue("tasks")
        seen_while_writing = []
        encode = worker.folder_queue.dumps

        def encode_and_look(payload):
            text = encode(payload)
            try:
                seen_while_writing.append(reader.get(block=False).payload)
            except reader.Empty:
                seen_while_writing.append(None)
            return text

        monkeypatch.setattr(worker.folder_queue, "dumps", encode_and_look)
        writing.SimpleQueue("tasks").put({"move": "b2"})
        monkeypatch.undo()
        assert seen_while_writing == [None]
        assert reader.get(timeout=1).payload == {"move": "b2"}


def test_a_message_that_cannot_be_written_is_refused_and_leaves_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "queue"

    def disk_full(payload):
        raise OSError(28, "No space left on device")

    with folder_connection(folder) as connection:
        monkeypatch.setattr(worker.folder_queue, "dumps", disk_full)
        with pytest.raises(ChannelError, match="Cannot add file"):
            connection.default_channel._put("tasks", {"move": "b2"})
        assert list(folder.iterdir()) == []
