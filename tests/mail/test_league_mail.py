"""League mail through the real SMTP server: the invitation, a season's start
with the player's games, a division's final table with promotion and
relegation, and the weekly digest with deadlines in the reader's zone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from pbem.config import base_url
from pbem.i18n.times import local_time
from pbem.leagues.balance import division_balance
from pbem.leagues.digest import send_league_digests
from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.mail.compose import compose
from pbem.models import Outbox
from pbem.services.time_control import TimeControl
from tests.mail.helpers import text_of
from tests.server.leagues.season_play import league_of, play_out

NEW_YORK = "America/New_York"


def mail_to(rig, user, subject: str) -> str:
    """The plain text of the mail (lines ended by \n: "½" makes it quoted-printable)."""
    mail = rig.capture.take(lambda m: user.email in str(m["To"]) and str(m["Subject"]) == subject)
    return text_of(mail).replace("\r\n", "\n")


def test_an_invitation_names_who_invites_the_league_its_game_and_clock(rig, session, make_user):
    owner, dan = make_user("Olga"), make_user("Dan")
    control = TimeControl(days_per_move=3, bank_days=5)
    league = create_league(session, owner, "Club", "toy-pick", 2, {"target": 3}, control)
    invite_entrant(session, league, owner, dan.email, "https://pbem.test/leagues/x")
    session.commit()
    text = mail_to(rig, dan, "Olga invites you to the league Club")
    assert "Olga invites you to the league Club on pbem." in text
    assert "Its game: Toy Pick, 2 players a game." in text
    assert f"Time control: {control.describe()}." in text
    assert "Join the league: https://pbem.test/leagues/x" in text


def test_a_season_start_lists_the_players_games_pacing_and_balance(rig, session, make_user):
    _, league, players = league_of(session, make_user, ["Ann", "Bob", "Cem", "Dan"])
    ann = players[0]
    season = start_season(session, league, pacing="rounds", round_days=7)
    session.commit()
    text = mail_to(rig, ann, "Club – Season 1 has started")
    (game,) = [g for g in season.games if any(s.user_id == ann.id for s in g.seats)]
    seat = next(s for s in game.seats if s.user_id == ann.id)
    other = next(s for s in game.seats if s is not seat)
    link = f"{base_url(rig.app.config)}/games/{game.public_id}"
    assert (
        f"  {game.title}: against {other.name}, you play seat {seat.position + 1}: {link}" in text
    )
    assert text.count("  Round 2: against ") + text.count("  Round 3: against ") == 2
    assert "The season has 3 rounds" in text and "or 7 days after it started" in text
    assert division_balance(season, 1).describe() in text
    season_page = f"{base_url(rig.app.config)}/leagues/{league.public_id}/seasons/1"
    assert f"The season's tables: {season_page}" in text


def test_the_final_table_shows_places_points_and_who_goes_up_or_down(rig, session, make_user):
    _, league, players = league_of(
        session,
        make_user,
        ["Ann", "Bob", "Cem", "Dan", "Eve"],
        divisions=2,
        promotion=1,
        points=[1, "1/2"],  # a lost game still earns half a point
    )
    ann, bob, cem, dan, eve = players
    for entrant in league.entrants:
        entrant.division = 1 if entrant.user_id in (ann.id, bob.id, cem.id) else 2
    season = start_season(session, league)
    session.commit()
    order = [ann.id, bob.id, cem.id, dan.id, eve.id]  # each beats everyone after them
    for game in list(season.games):
        play_out(session, game, min((s.user_id for s in game.seats), key=order.index))
    subject = "Club – Season 1: the final table"
    text = mail_to(rig, cem, subject)
    table = text.split("\n\n")[1].splitlines()
    assert table[0].split() == ["Name", "Played", "Points", "Score"]
    assert [line.split()[:4] for line in table[1:]] == [  # then the score: toy points
        ["1", "Ann", "2", "2"],
        ["2", "Bob", "2", "1½"],
        ["3", "Cem", "2", "1"],
    ]
    assert "You finished 3 of 3." in text and "You go down to division 2 next season." in text
    assert f"/leagues/{league.public_id}/seasons/1" in text
    up = mail_to(rig, dan, subject)
    assert "You finished 1 of 2." in up and "You go up to division 1 next season." in up
    stays = mail_to(rig, ann, subject)
    assert "You finished 1 of 3." in stays and "next season" not in stays


def test_the_weekly_digest_shows_the_table_and_whose_turn_with_local_deadlines(
    rig, session, make_user
):
    owner = make_user("Olga")
    control = TimeControl(days_per_move=3)
    league = create_league(session, owner, "Weekly", "toy-pick", 2, {"target": 3}, control)
    players = [make_user(name) for name in ("Ann", "Bob", "Cem", "Dan", "Eve")]
    for player in players:
        invite_entrant(session, league, owner, player.email, "https://pbem.test/league")
        join_league(session, league.public_id, player)
    ann = players[0]
    ann.time_zone = NEW_YORK
    session.commit()
    season = start_season(session, league)
    session.commit()
    ann_games = [g for g in season.games if any(s.user_id == ann.id for s in g.seats)]
    finished, waiting = ann_games[0], ann_games[1:]
    play_out(session, finished, ann.id)
    session.refresh(season)
    now = datetime.now(UTC)
    local = now.astimezone(ZoneInfo(NEW_YORK))  # the digest is due now in Ann's zone
    ann.league_digest_day, ann.league_digest_hour = local.weekday(), local.hour
    eve = players[4]  # in UTC, last of the four tied behind Ann by name
    eve.league_digest_day, eve.league_digest_hour = now.weekday(), now.hour
    session.commit()
    assert send_league_digests(session, now) >= 1
    text = mail_to(rig, ann, "Your leagues this week")
    assert "Weekly – Season 1, division 1:" in text
    table = [line.split() for line in text.split("\n\n")[1].splitlines()[1:]]
    assert table[0][:4] == ["*", "1", "Ann", "1"]  # Ann's own line, marked: 1 game played
    assert len(table) == 5  # every player of the division, not only the top three
    for game in waiting:
        seat = next(s for s in game.seats if s.user_id == ann.id)
        due = local_time(seat.timeout_at, NEW_YORK).split(" (")[0]
        assert f"  {game.title}: waiting for " in text and f"you (due {due}" in text
        assert f"/games/{game.public_id}" in text
    assert f"/leagues/{league.public_id}/seasons/1" in text
    eves = mail_to(rig, eve, "Your leagues this week").split("\n\n")[1].splitlines()[1:]
    assert len(eves) == 5 and eves[-1].startswith("*") and "Eve" in eves[-1].split()


def test_league_game_titles_in_mail_are_in_the_readers_language(rig, session, make_user):
    owner, jana = make_user("Camille"), make_user("Jana")
    jana.language = "cs"
    league = create_league(session, owner, "Club", "taluva", 2, {})
    for player in (owner, jana):
        invite_entrant(session, league, owner, player.email, "https://pbem.test/league")
        join_league(session, league.public_id, player)
    session.commit()
    season = start_season(session, league)
    session.commit()
    (game,) = season.games
    czech = "Club – Sezóna 1 – Kolo 1 – Hra 1"
    assert game.title == "Club – Season 1 – Round 1 – Game 1"  # kept in English
    started = mail_to(rig, jana, "Club – Sezóna 1 začala")
    assert f"  {czech}: " in started and game.title not in started
    seat = next(s for s in game.seats if s.user_id == jana.id)
    turn = Outbox(
        recipient=jana, game_id=game.id, kind="your_turn", payload={"seat": seat.position}
    )
    with rig.app.app_context():
        subject = str(compose(session, turn, rig.app.config)["Subject"])
    assert subject.startswith(f"{czech}, tah 1: ")
