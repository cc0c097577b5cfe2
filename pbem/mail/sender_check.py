"""The sender check our own receiving host made (SPF, DKIM, DMARC), as it
wrote it in an Authentication-Results header (RFC 8601).

Anyone can write such a header into a mail, so only those naming our host's
authserv-id (PBEM_MAIL_AUTHSERV_ID) count, and only to refuse: a failure in
any of them refuses the mail, so a forged "pass" below the host's own "fail"
changes nothing. A result speaks for a domain (DMARC for header.from, SPF for
smtp.mailfrom): one that speaks for another domain than From's says nothing
about the sender pbem reads, so it refuses too (relay services that rewrite
the sender fail here: players write from their own address). Without the
setting no header is trusted and none is read.
"""

from __future__ import annotations

from email.message import EmailMessage

import authres

from pbem.mail.addresses import domain_of

DMARC_FAILURES = {"fail", "permerror"}
SPF_FAILURES = {"fail", "hardfail", "softfail"}
# The property naming the domain each method's result speaks for.
SPEAKS_FOR = {"dmarc": ("header", "from"), "spf": ("smtp", "mailfrom"), "dkim": ("header", "d")}


def failed_check(message: EmailMessage, authserv_id: str | None, sender: str) -> str | None:
    """What our host found wrong with `sender`'s mail (e.g. "dmarc=fail"), or None."""
    if not authserv_id:
        return None
    for value in message.get_all("Authentication-Results", []):
        try:
            header = authres.AuthenticationResultsHeader.parse_value(str(value))
        except authres.AuthResError:  # not ours: our host writes readable headers
            continue
        if str(header.authserv_id).lower() == authserv_id.lower():
            failure = _failure(header.results, domain_of(sender))
            if failure:
                return failure
    return None


def _failure(results: list[authres.AuthenticationResult], domain: str) -> str | None:
    """DMARC failed, SPF failed with no DKIM signature of the sender's domain
    to vouch for the mail, or a result speaks for another domain."""
    found: set[tuple[str, str]] = set()
    for result in results:
        method, outcome = str(result.method).lower(), str(result.result).lower()
        spoken_for = _spoken_for(result, method)
        if method in ("dmarc", "spf") and spoken_for and not _same_domain(spoken_for, domain):
            return f"{method} speaks for {spoken_for}, not {domain}"
        if method != "dkim" or (spoken_for and _same_domain(spoken_for, domain)):
            found.add((method, outcome))
    dmarc_failed = {outcome for method, outcome in found if method == "dmarc"} & DMARC_FAILURES
    if dmarc_failed:
        return f"dmarc={min(dmarc_failed)}"
    spf_failed = {outcome for method, outcome in found if method == "spf"} & SPF_FAILURES
    if spf_failed and ("dkim", "pass") not in found:
        return f"spf={min(spf_failed)} and no dkim=pass"
    return None


def _spoken_for(result: authres.AuthenticationResult, method: str) -> str | None:
    """The domain a result names as the one it checked, if it names one."""
    wanted = SPEAKS_FOR.get(method)
    for prop in result.properties:
        if wanted and (str(prop.type).lower(), str(prop.name).lower()) == wanted:
            return domain_of(str(prop.value)) or None
    return None


def _same_domain(checked: str, sender_domain: str) -> bool:
    """Relaxed alignment (RFC 7489) without the public suffix list: the same
    domain, or one a subdomain of the other (bounces.example.org for example.org;
    never a bare top-level domain)."""
    return (
        checked == sender_domain
        or checked.endswith("." + sender_domain)
        or ("." in checked and sender_domain.endswith("." + checked))
    )
