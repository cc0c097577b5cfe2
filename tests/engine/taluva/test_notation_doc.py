"""The examples in docs/notation/taluva.md are legal moves that do what they say."""

from pathlib import Path

from engine.games.taluva.island import HUT
from engine.games.taluva.state import TaluvaState
from engine.games.taluva.tiles import Tile

DOC = Path(__file__).parents[3] / "docs" / "notation" / "taluva.md"


def example_moves() -> list[str]:
    block = DOC.read_text().split("## Examples", 1)[1].split("##", 1)[0]
    lines = [line[4:] for line in block.splitlines() if line.startswith("    ")]
    return [line.split("  ")[0].strip() for line in lines if line.split("  ")[0].strip()]


def test_documented_examples_play_as_described():
    moves = example_moves()
    assert len(moves) == 8
    state = TaluvaState.new(2, "doc")
    for number, text in enumerate(moves):
        if text.startswith("tile"):
            state.drawn = Tile("jungle", "sand")
        state.play(number // 2 % 2, text)
    cells = state.island.cells
    assert cells[(0, -1)].building == HUT and cells[(2, -1)].building == HUT
    assert cells[(1, -1)].building is None and cells[(1, -1)].level == 2
    assert state.stocks[0][HUT] == 20 - 3
