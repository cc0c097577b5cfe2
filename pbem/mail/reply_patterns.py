"""The lines mail clients write around a reply, in many languages.

Quote headers (an attribution such as "On ... wrote:", an Outlook header
block, an "-----Original Message-----" separator) start the quoted original;
signature markers ("-- ", "Sent from my iPhone", a closing such as "Best
regards,") start what the player did not write as moves. mail-parser-reply's
quote headers, phone signatures and closings of every language it knows are
used; what it misses (wrapped Gmail attributions, Czech and most other
clients' separators, attributions without a verb, phone signatures, contact
lines) is listed here. Each pattern must match whole lines, never a part of
one, so a move is never cut short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage as LibraryMessage


def _one_of(words: Iterable[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


def _library(key: str) -> list[str]:
    """mail-parser-reply's patterns of one kind, from every language it knows."""
    found: list[str] = []
    for patterns in MAIL_LANGUAGES.values():
        value = patterns.get(key) or []
        found.extend([value] if isinstance(value, str) else value)
    return [pattern for pattern in found if pattern]


# Every language mail-parser-reply has patterns for; its own quote headers.
LIBRARY_LANGUAGES = sorted(MAIL_LANGUAGES)
LIBRARY_HEADER = LibraryMessage("", languages=list(LIBRARY_LANGUAGES)).HEADER_REGEX

# The verb that ends an attribution ("... wrote:", "... a écrit :").
WROTE = _one_of(
    [
        "wrote", "writes", "a écrit", "écrit", "schrieb", "napsal\\(a\\)", "napsala", "napsal",
        "escribió", "ha scritto", "schreef", "het volgende geschreven", "geschreven",
        "napisał\\(a\\)", "napisała", "napisał", "pisze", "escreveu", "skrev", "kirjoitti",
        "írta", "yazdı", "написал\\(а\\)", "написала", "написал", "写道", "작성",
        "va escriure", "a scris",
    ]
)  # fmt: skip
# Verbs written with no space before them ("pbem さんは書きました:").
WROTE_UNSPACED = _one_of(["書きました", "写道", "작성"])
ATTRIBUTION = re.compile(
    rf"(?:(?:.*(?<![^\W\d_]))?(?:{WROTE})|.*(?:{WROTE_UNSPACED}))(?:[\s(].{{0,160}})?\s*[:：]",
    re.IGNORECASE,
)
ATTRIBUTION_MAX_CHARS = 400
# An attribution naming no verb ("2014-03-20 8:48 GMT+01:00 Ann <ann@x>:",
# "пн, 23 нояб. 2026 г. в 10:02, Ann <ann@x>:", "23.11.2026 10:02, Ann:"): a
# time and an address, or a date and a time, before the colon. Only taken as
# a header when a quote follows it.
TIME = r"\d{1,2}[:.]\d{2}"
DATE = r"\d{1,4}[./-] ?\d{1,2}[./-] ?\d{1,4}"
DATED_ATTRIBUTION = re.compile(
    rf".*{TIME}.*(?:@|<).*[:：]|.*(?:@|<).*{TIME}.*[:：]|.*{DATE}.*{TIME}.*[:：]"
)
# The first line of an attribution wrapped over two or three lines.
WRAPPED_START = re.compile(rf".*(?:{TIME}|@).*|.*[<(]")
# How attributions begin ("On ...", "Le ...", "Dne ..."): a line that begins
# so is a header of its own, never the end of one wrapped from the line before.
OPENER = re.compile(r"(?:On|Le|Am|Dne|El|Il|Op|Em|No dia|Den|W dniu|Dnia)\s")

ORIGINAL = _one_of(
    [
        "original message", "forwarded message", "message d'origine", "mail d'origine",
        "mail original", "original-nachricht",
        "message transféré", "ursprüngliche nachricht", "originalnachricht",
        "weitergeleitete nachricht", "původní zpráva", "původní e-mail", "přeposlaná zpráva",
        "mensaje original", "mensaje reenviado", "messaggio originale", "messaggio inoltrato",
        "mensagem original", "mensagem encaminhada", "oorspronkelijk bericht",
        "doorgestuurd bericht", "originalmeddelande", "vidarebefordrat meddelande",
        "oprindelig meddelelse", "videresendt meddelelse", "opprinnelig melding",
        "alkuperäinen viesti", "eredeti üzenet", "oryginalna wiadomość",
        "wiadomość oryginalna", "przekazana wiadomość", "исходное сообщение",
        "пересылаемое сообщение", "orijinal ileti", "原始邮件", "元のメッセージ",
    ]
)  # fmt: skip
# Apple Mail's "Begin forwarded message:" and its translations.
FORWARDED = _one_of(
    [
        "begin forwarded message", "début du message réexpédié", "začátek přeposílané zprávy",
        "anfang der weitergeleiteten nachricht", "inicio del mensaje reenviado",
        "inizio messaggio inoltrato", "begin doorgestuurd bericht",
        "início da mensagem reencaminhada", "vidarebefordrat brev",
        "początek przekazywanej wiadomości",
    ]
)  # fmt: skip
# A line drawn across ("==========", "----------"): a separator only when a
# header field follows it closely (a forward), since a player may draw one.
RULE = re.compile(r"[-=_*~─━]{4,}")
SEPARATOR = re.compile(
    rf"[-_=*\s]{{2,}}(?:{ORIGINAL})[-_=*\s]{{2,}}|_{{5,}}|(?:{FORWARDED})\s*:"
    # Zoho: "---- On Mon, 23 Nov 2026 10:02 pbem wrote ----"
    rf"|-{{2,}}\s.*(?<![^\W\d_])(?:{WROTE})\s+-{{2,}}",
    re.IGNORECASE,
)

# Outlook-style header blocks: "From:/Sent:/To:/Subject:" in each language.
FROM_FIELDS = _one_of(
    [
        "from", "von", "de", "od", "da", "van", "från", "fra", "lähettäjä", "feladó", "kimden",
        "от", "nadawca", "remetente", "发件人", "보낸 사람", "差出人",
    ]
)  # fmt: skip
OTHER_FIELDS = _one_of(
    [
        "sent", "date", "to", "subject", "cc", "gesendet", "an", "betreff", "datum", "envoyé",
        "envoyé le", "à", "a", "objet", "date d'envoi", "odesláno", "komu", "předmět", "kopie",
        "enviado", "enviado el", "enviada em", "enviado em", "para", "asunto", "assunto",
        "fecha", "data", "inviato", "oggetto", "verzonden", "aan", "onderwerp", "skickat",
        "till", "ämne", "sendt", "til", "emne", "lähetetty", "vastaanottaja", "aihe",
        "elküldve", "címzett", "tárgy", "wysłano", "do", "temat", "dw", "отправлено", "кому",
        "тема", "дата", "kime", "konu", "tarih", "gönderildi", "发送时间", "收件人", "主题",
        "message du",
        "送信日時", "宛先", "件名", "보낸 날짜", "받는 사람", "제목",
    ]
)  # fmt: skip
HEADER_FIELD = re.compile(
    rf"[*\s]*(?:(?:{FROM_FIELDS}|{OTHER_FIELDS})[*\s]*[:：]|message du\s+\d).*", re.IGNORECASE
)  # French webmails: "Message du 23/11/26 10:02", then "De : ..."
FROM_FIELD = re.compile(rf"[*\s]*(?:{FROM_FIELDS})[*\s]*[:：].*", re.IGNORECASE)

SENT_FROM = _one_of(
    [
        "sent from", "sent with", "sent via", "get outlook for", "envoyé de mon",
        "envoyé depuis", "envoyé à partir de", "envoyé avec", "odesláno z", "odesláno ze",
        "odeslano z", "posláno z", "von meinem .{1,40} gesendet", "gesendet von",
        "gesendet mit", "gesendet vom", "enviado desde", "enviado do", "enviado con",
        "inviato da", "inviato dal", "verzonden vanaf", "verzonden met", "verstuurd vanaf",
        "wysłano z", "skickat från", "sendt fra", "lähetetty", "отправлено с", "отправлено из",
        "télécharger outlook pour", "obtenir outlook pour", "stáhnout outlook pro",
        "získat outlook pro", "outlook für .{1,20} herunterladen", "obtener outlook para",
        "scarica outlook per", "outlook voor .{1,20} downloaden", "pobierz outlook dla",
        *_library("sent_from"),
    ]
)  # fmt: skip
# "-- ", "—" and a mailing list's "__" footer start a signature wherever they are;
# "Sent from my iPhone" only where nothing new follows ("Sent from my desk,
# between two meetings:" above moves is the player's own text).
SIGNATURE_START = re.compile(r"--|—|_{2,4}")
SENT_FROM_LINE = re.compile(rf"(?:{SENT_FROM})(?:\W.{{0,80}})?", re.IGNORECASE)
# Closings, only when the whole line is one, perhaps with a name: "Thanks,",
# "S pozdravem", "Grüße, Ann".
CLOSING = _one_of(
    [
        "thanks", "thank you", "cheers", "best", "regards", "best regards", "kind regards",
        "cordialement", "bien cordialement", "bien à vous", "amitiés", "merci", "à bientôt",
        "bonne journée", "s pozdravem", "zdravím", "díky", "děkuji", "mit freundlichen grüßen",
        "grüße", "lg", "saludos", "un saludo", "cordiali saluti", "saluti", "grazie",
        "met vriendelijke groet", "groeten", "groetjes", "pozdrawiam", "z poważaniem",
        "atenciosamente", "abraços", "cumprimentos", "med vänliga hälsningar", "hälsningar",
        "mvh", "med venlig hilsen", "hilsen", "terveisin", "üdvözlettel", "saygılarımla",
        "с уважением", "sincerely", "yours sincerely", "yours", "best wishes", "warm regards",
        "many thanks", "amicalement", "salutations", "bonne soirée", "hezký den", "měj se",
        "viele grüße", "liebe grüße", "beste grüße", "gruß", "atentamente", "un abrazo",
        "gracias", "un saluto", "distinti saluti", "hartelijke groet", "vriendelijke groet",
        "groet", "serdecznie pozdrawiam", "pozdrowienia", "dzięki",
        *_library("signatures"),
    ]
)  # fmt: skip
NAME = r"[^\W\d_][\w.'-]*(?:\s+[^\W\d_][\w.'-]*){0,2}"
# A greeting, perhaps with a name or "all": "Hi all,", "Bonjour Paul !", "Ahoj všichni".
GREETING = _one_of(
    [
        "hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening",
        "bonjour", "bonsoir", "salut", "coucou", "cher", "chère", "ahoj", "dobrý den",
        "dobrý večer", "zdravím", "čau", "nazdar", "milý", "milá", "hallo", "guten tag",
        "guten morgen", "guten abend", "liebe", "lieber", "moin", "servus", "hola",
        "buenos días", "buenas tardes", "buenas", "estimado", "estimada", "ciao", "salve",
        "buongiorno", "buonasera", "caro", "cara", "hoi", "dag", "goedemorgen", "goedemiddag",
        "goedenavond", "beste", "cześć", "dzień dobry", "witam", "witaj", "olá", "bom dia",
        "hej", "hei",
    ]
)  # fmt: skip
GREETING_LINE = re.compile(rf"(?:{GREETING})(?:\s+{NAME})?[\s,.!]*", re.IGNORECASE)
# A signature's contact block: a name first, then lines of which one at least
# is a labelled or international phone number, an e-mail or a web address.
NAME_LINE = re.compile(r"[^\W\d_][\w.'-]*(?:\s+[^\W\d_][\w.'-]*){0,3}(?:\s*[|,–-]\s.*)?")
PHONE = r"\+?\(?\d[\d ()./-]{5,}\d"
CONTACT = re.compile(
    rf".*(?:\b(?:tel|tél|phone|mobile?|mob|cell|fax|telefon|tfn|móvil|cel|handy|gsm)\b[.:\s]*{PHONE}"
    rf"|\+\d[\d ()./-]{{6,}}\d|[\w.+-]+@[\w-]+\.[\w.-]+|https?://\S+|www\.\S+).*",
    re.IGNORECASE,
)
# A place on a board as the games write it: "2,-1" (Taluva), "G9", "N12".
PLACE = re.compile(r"(?<![\w,-])(?:-?\d+,-?\d+|[A-Za-z]\d{1,2})(?![\w,])")
# What makes an attribution certain even with no quote after it: a time or
# date, or the sender's address ("Bob wrote:" alone may be the player's text).
NAMES_WHEN_OR_WHO = re.compile(r".*(?:\d|@|<).*")
CLOSING_LINE = re.compile(rf"(?:{CLOSING})(?:[\s,.!]+{NAME})?[\s,.!]*", re.IGNORECASE)


def is_separator(line: str) -> bool:
    return SEPARATOR.fullmatch(line.replace("\u2019", "'")) is not None


def _may_attribute(line: str) -> bool:
    """Cheap checks first: attributions are short and end with a colon, and
    the patterns' backtracking must stay bounded on long lines."""
    return len(line) <= ATTRIBUTION_MAX_CHARS and line.rstrip().endswith((":", "："))


def is_attribution(line: str) -> bool:
    return _may_attribute(line) and ATTRIBUTION.fullmatch(line) is not None


def is_dated_attribution(line: str) -> bool:
    return _may_attribute(line) and DATED_ATTRIBUTION.fullmatch(line) is not None


def may_start_wrapped_attribution(line: str) -> bool:
    return WRAPPED_START.fullmatch(line) is not None


def opens_attribution(line: str) -> bool:
    return OPENER.match(line) is not None and is_attribution(line)


def library_header_lines(text: str) -> int:
    """How many of the text's lines mail-parser-reply takes as a quote header
    starting at its first line; 0 for none."""
    found = LIBRARY_HEADER.match(text)
    if found is None or not found.group().strip():
        return 0
    return found.group().rstrip("\n").count("\n") + 1


def is_header_field(line: str) -> bool:
    return HEADER_FIELD.fullmatch(line) is not None


def is_from_field(line: str) -> bool:
    return FROM_FIELD.fullmatch(line) is not None


def starts_signature(line: str) -> bool:
    return SIGNATURE_START.fullmatch(line) is not None


def is_sent_from(line: str) -> bool:
    return SENT_FROM_LINE.fullmatch(line) is not None


def is_closing(line: str) -> bool:
    """A closing line, indented or not."""
    return CLOSING_LINE.fullmatch(line.strip()) is not None


def is_greeting(line: str) -> bool:
    return GREETING_LINE.fullmatch(line.strip()) is not None


def is_name(line: str) -> bool:
    """A line that may be someone's name: a few words, the first capitalised."""
    return line[:1].isupper() and NAME_LINE.fullmatch(line) is not None


def names_a_place(line: str) -> bool:
    return PLACE.search(line) is not None


def is_contact(line: str) -> bool:
    return CONTACT.fullmatch(line) is not None


def names_when_or_who(line: str) -> bool:
    return NAMES_WHEN_OR_WHO.fullmatch(line) is not None


def is_certain_attribution(line: str) -> bool:
    return is_attribution(line) and names_when_or_who(line)


def is_rule(line: str) -> bool:
    return RULE.fullmatch(line.strip()) is not None
