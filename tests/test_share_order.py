"""Each test process's share of the list starts with its turn of the system
tests (tests/conftest.py), so none is left with them at the end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from tests.conftest import system_first_in_each_share


@dataclass
class Item:
    name: str

    def get_closest_marker(self, name: str) -> object | None:
        return name if name == "system" and self.name.startswith("s") else None


def test_each_share_starts_with_its_turn_of_the_system_tests():
    items = [Item(name) for name in ["r1", "s1", "r2", "r3", "s2", "r4", "s3", "r5", "r6"]]
    ordered = system_first_in_each_share(cast(Any, items), 2)
    assert [item.name for item in ordered] == ["s1", "s3", "r1", "r2", "r3", "s2", "r4", "r5", "r6"]
