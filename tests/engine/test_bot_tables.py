from engine.bots import LEVELS
from tests.engine.bot_tables import MIXED_TABLES


def test_the_mixed_tables_seat_every_level_at_every_player_count():
    for players in (2, 3, 4):
        seated = {level for table in MIXED_TABLES if len(table) == players for level in table}
        assert seated == set(LEVELS), players
