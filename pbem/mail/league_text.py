"""League mail, written when it is sent from the league as it is then: an
invitation, a season's start (the player's games), a place given to another
player (to the newcomer, with its games, and to the player replaced), a
division's final table and the weekly league digest. None of them is about
one game, so none has a board or a seat's Reply-To; each links to the
league's pages."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from pbem.config import base_url
from pbem.i18n.games import game_title
from pbem.i18n.times import local_time
from pbem.leagues.balance import division_balance
from pbem.leagues.digest import playing_now
from pbem.leagues.leagues import find_league, league_time_control
from pbem.leagues.links import season_link
from pbem.leagues.seasons import division_rounds, rounds_in, shown_title
from pbem.leagues.tables import PER_GAME, TableRow, division_table, ranks_per_game
from pbem.mail.message import Mail
from pbem.models import Game, GameStatus, League, Outbox, Season, SeasonEntrant, Seat, User
from pbem.services import notifications
from pbem.services.errors import NotFound
from pbem.services.links import take_over_url
from pbem.services.names import player_name

FRACTIONS = {
    Fraction(1, 4): "¼",
    Fraction(1, 3): "⅓",
    Fraction(1, 2): "½",
    Fraction(2, 3): "⅔",
    Fraction(3, 4): "¾",
}


def _reader(row: Outbox) -> User:
    if row.recipient is None:
        raise ValueError(f"a {row.kind} mail goes to a player, not to an address")
    return row.recipient


def _invitation_mail(session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    return _invitation(mail, find_league(session, row.payload["league"]), row.payload)


def _season_start_mail(session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    season, place = _season_place(session, row)
    return _season_start(mail, season, place, config)


def _season_over_mail(session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    season, place = _season_place(session, row)
    return _season_over(session, mail, season, place)


def _take_over_mail(session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    season, place = _season_place(session, row)
    return _season_take_over(mail, season, place, row.payload, config)


def _replaced_mail(session: Session, mail: Mail, row: Outbox, _config: Mapping[str, Any]) -> str:
    """To the player replaced: they have no place left in the season."""
    return _season_replaced(mail, _season_of(session, row), row.payload)


def _digest_mail(session: Session, mail: Mail, row: Outbox, config: Mapping[str, Any]) -> str:
    return _digest(session, mail, _reader(row), config)


def _season_place(session: Session, row: Outbox) -> tuple[Season, SeasonEntrant]:
    """The season a row is about, and the reader's place in it."""
    season = _season_of(session, row)
    return season, _place(season, _reader(row), row.payload["division"])


def _season_of(session: Session, row: Outbox) -> Season:
    league = find_league(session, row.payload["league"])
    season = next((s for s in league.seasons if s.number == row.payload["season"]), None)
    if season is None:
        raise NotFound(f"league {league.public_id} has no season {row.payload['season']}")
    return season


def points_text(value: Fraction) -> str:
    """Points and scores as tables show them: 2, ½, 1½, 2⅓ (shared places split points)."""
    whole, rest = divmod(value, 1)
    if not rest:
        return str(whole)
    mark = FRACTIONS.get(rest)
    return f"{whole or ''}{mark}" if mark and whole >= 0 else f"{float(value):g}"


def _invitation(mail: Mail, league: League, payload: Mapping[str, Any]) -> str:
    mail.para(
        _(
            "%(name)s invites you to the league %(league)s on pbem.",
            name=payload["from"],
            league=league.name,
        )
    )
    mail.para(
        _(
            "Its game: %(game)s, %(players)s players a game.",
            game=game_title(league.ruleset),
            players=league.players_per_game,
        )
        + "\n"
        + _time_control(league)
    )
    mail.link(_("Join the league"), payload["link"])
    return _(
        "%(name)s invites you to the league %(league)s", name=payload["from"], league=league.name
    )


def _time_control(league: League) -> str:
    control = league_time_control(league)
    return _("Time control: %(control)s.", control=control.describe() if control else _("no clock"))


def _place(season: Season, user: User, division: int) -> SeasonEntrant:
    for place in season.entrants:
        if place.user_id == user.id and place.division == division:
            return place
    raise NotFound(f"{user.name} has no place in division {division} of this season")


def _season_start(
    mail: Mail, season: Season, place: SeasonEntrant, config: Mapping[str, Any]
) -> str:
    name = _season_name(season)
    mail.para(_("%(season)s has started.", season=name))
    mine = [g for g in season.games if _seat_of(g, place) is not None]
    if mine:
        lines = [_game_line(g, place, _game_url(config, g)) for g in mine]
        mail.listing(_("Your games now:"), lines)
    later = _later_rounds(season, place)
    if later:
        mail.listing(_("Your games in later rounds:"), later)
    mail.para(_pacing(season, place.division))
    mail.para(division_balance(season, place.division).describe())
    mail.link(_("The season's tables"), season_link(season))
    return _("%(season)s has started", season=name)


def _season_take_over(
    mail: Mail,
    season: Season,
    place: SeasonEntrant,
    payload: Mapping[str, Any],
    config: Mapping[str, Any],
) -> str:
    """The one mail to an entrant's replacement, instead of an invitation and
    a 'your turn' per game: the place, its games under way (the first link
    followed signs the newcomer in), those waiting for their move, the
    rounds to come and the clock."""
    name = _season_name(season)
    mail.para(
        _(
            "%(organiser)s (organiser) gave you the place of %(player)s in %(season)s: its"
            " points so far and its games under way are yours now.",
            organiser=payload["from"],
            player=payload["replaces"],
            season=name,
        )
    )
    held = [
        seat
        for game in season.games
        if game.status == GameStatus.ACTIVE
        and (seat := _seat_of(game, place)) is not None
        and seat.user_id == place.user_id
    ]
    if held:
        lines = [_game_line(s.game, place, _take_over_link(s, config)) for s in held]
        mail.listing(_("Your games now:"), lines)
    waiting = [_due_line(s) for s in held if s.position in s.game.to_act]
    if waiting:
        mail.listing(_("Waiting for your move:"), waiting)
    later = _later_rounds(season, place)
    if later:
        mail.listing(_("Your games in later rounds:"), later)
    mail.para(_time_control(season.league))
    mail.link(_("The season's tables"), season_link(season))
    return _(
        "%(season)s: you take over the place of %(player)s", season=name, player=payload["replaces"]
    )


def _take_over_link(seat: Seat, config: Mapping[str, Any]) -> str:
    """The link that brings the seat's new player to it, signing them in,
    until they have followed it (pbem.web.lobby.take_over); then the game's page."""
    assert seat.user is not None  # a seat its player holds
    if seat.invited_email == seat.user.email:
        return take_over_url(seat, seat.user.email)
    return _game_url(config, seat.game)


def _due_line(seat: Seat) -> str:
    """The game, with the seat's deadline in its player's zone."""
    title = shown_title(seat.game)
    if seat.timeout_at is None or seat.user is None:
        return title
    due = local_time(seat.timeout_at, seat.user.time_zone)
    return _("%(game)s, due %(time)s", game=title, time=due)


def _season_replaced(mail: Mail, season: Season, payload: Mapping[str, Any]) -> str:
    """The one mail to the player replaced, whatever the games they lose."""
    name = _season_name(season)
    mail.para(
        _(
            "%(organiser)s (organiser) gave your place in %(season)s to %(new)s. You no"
            " longer play in this season and have left the league: its games' mails no"
            " longer come to you.",
            organiser=payload["from"],
            season=name,
            new=payload["new"],
        )
    )
    mail.link(_("The season's tables"), season_link(season))
    return _("%(season)s: your place was given to another player", season=name)


def _game_url(config: Mapping[str, Any], game: Game) -> str:
    return f"{base_url(config)}/games/{game.public_id}"


def _season_name(season: Season) -> str:
    return _("%(league)s – Season %(number)s", league=season.league.name, number=season.number)


def _seat_of(game: Game, place: SeasonEntrant) -> Seat | None:
    return next((s for s in game.seats if s.entrant_id == place.id), None)


def _game_line(game: Game, place: SeasonEntrant, link: str) -> str:
    seat = _seat_of(game, place)
    assert seat is not None  # only the place's own games are listed
    others = ", ".join(s.name for s in game.seats if s is not seat)
    return _(
        "%(game)s: against %(others)s, you play seat %(seat)s: %(link)s",
        game=shown_title(game),
        others=others,
        seat=seat.position + 1,
        link=link,
    )


def _later_rounds(season: Season, place: SeasonEntrant) -> list[str]:
    """The schedule's games of rounds not started yet, opponents by name."""
    return [
        _(
            "Round %(round)s: against %(others)s, seat %(seat)s",
            round=fixture.round,
            others=", ".join(
                n for p, n in zip(fixture.places, fixture.names, strict=True) if p != place.id
            ),
            seat=fixture.places.index(place.id) + 1,
        )
        for round_ in division_rounds(season, place.division)
        for fixture in round_
        if fixture.game is None and place.id in fixture.places
    ]


def _pacing(season: Season, division: int) -> str:
    if season.pacing == "all":
        return _("Every game of the season starts now: play them in any order.")
    rounds = rounds_in(season, division)
    if season.round_days:
        return _(
            "The season has %(rounds)s rounds; the next round starts when every game of the "
            "one before is over, or %(days)s days after it started at the latest.",
            rounds=rounds,
            days=season.round_days,
        )
    return _(
        "The season has %(rounds)s rounds; the next round starts when every game of the "
        "one before is over.",
        rounds=rounds,
    )


def _season_over(session: Session, mail: Mail, season: Season, place: SeasonEntrant) -> str:
    name = _season_name(season)
    table = division_table(session, season, place.division)
    if season.league.divisions > 1:
        mail.para(_("%(season)s is over. The final table of your division:", season=name))
    else:
        mail.para(_("%(season)s is over. The final table:", season=name))
    mail.pre(_table_text(table))
    _per_game_note(mail, season, place.division)
    own = next(r for r in table if r.place.id == place.id)
    mail.para(_("You finished %(place)s of %(count)s.", place=own.row.place, count=len(table)))
    moved = place.entrant.division
    if moved < place.division:
        mail.para(_("You go up to division %(division)s next season.", division=moved))
    elif moved > place.division:
        mail.para(_("You go down to division %(division)s next season.", division=moved))
    mail.link(_("The season's tables"), season_link(season))
    return _("%(season)s: the final table", season=name)


def _per_game_note(mail: Mail, season: Season, division: int) -> None:
    if ranks_per_game(season, division):
        mail.para(str(PER_GAME))


def _table_text(rows: list[TableRow], marked: int | None = None) -> str:
    """A plain-text table, one row a line; `marked`: the reader's place id."""
    shown = [player_name(r.place.name, r.place.user) for r in rows]
    names = [
        _("%(name)s (withdrew)", name=name) if r.withdrawn else name
        for r, name in zip(rows, shown, strict=True)
    ]
    heads = [_("Name"), _("Played"), _("Points"), _("Score")]
    width = max([len(name) for name in names] + [len(heads[0])])
    played, points, score = (max(len(h), w) for h, w in zip(heads[1:], (6, 6, 5), strict=True))
    lines = [
        f"     {heads[0]:<{width}}  {heads[1]:>{played}}  {heads[2]:>{points}}  {heads[3]:>{score}}"
    ]
    for r, name in zip(rows, names, strict=True):
        mark = "*" if r.place.id == marked else " "
        lines.append(
            f"{mark}{r.row.place:>3}  {name:<{width}}  {r.row.played:>{played}}"
            f"  {points_text(r.row.points):>{points}}  {points_text(r.row.score):>{score}}"
        )
    return "\n".join(lines)


def _digest(session: Session, mail: Mail, user: User, config: Mapping[str, Any]) -> str:
    """For each season the user plays in now: their division's whole table,
    their own line marked, and who must move in each of their games."""
    places = playing_now(session, user)
    for place in places:
        season = place.season
        mail.para(
            _(
                "%(season)s, division %(division)s:",
                season=_season_name(season),
                division=place.division,
            )
        )
        table = division_table(session, season, place.division)
        mail.pre(_table_text(table, marked=place.id))  # every row: each player is someone
        _per_game_note(mail, season, place.division)
        games = [g for g in season.games if g.status == GameStatus.ACTIVE and _seat_of(g, place)]
        if games:
            mail.listing(_("Your games:"), [_turn_line(g, user, config) for g in games])
        mail.link(_("The season's tables"), season_link(season))
    if not places:
        mail.para(_("None of your league seasons is under way any more."))
    mail.link(_("Change when this mail comes"), f"{base_url(config)}/settings")
    return _("Your leagues this week")


def _turn_line(game: Game, user: User, config: Mapping[str, Any]) -> str:
    """Whose turn it is, with each deadline in the reader's zone."""
    waiting = []
    for seat in game.seats:
        if seat.position not in game.to_act:
            continue
        who = _("you") if seat.user_id == user.id else seat.name
        if seat.timeout_at is not None:
            due = local_time(seat.timeout_at, user.time_zone)
            who = _("%(who)s (due %(time)s)", who=who, time=due)
        waiting.append(who)
    turn = (
        _("waiting for %(players)s", players=", ".join(waiting)) if waiting else _("no one to move")
    )
    return f"{shown_title(game)}: {turn}: {_game_url(config, game)}"


# The writers of the league's kinds (pbem.mail.compose has the others').
LEAGUE_WRITERS = {
    notifications.LEAGUE_INVITE: _invitation_mail,
    notifications.SEASON_START: _season_start_mail,
    notifications.SEASON_TAKE_OVER: _take_over_mail,
    notifications.SEASON_REPLACED: _replaced_mail,
    notifications.SEASON_OVER: _season_over_mail,
    notifications.LEAGUE_DIGEST: _digest_mail,
}
