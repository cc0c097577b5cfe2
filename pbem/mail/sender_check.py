"""The sender check our own receiving host made (SPF, DKIM, DMARC), as it
wrote it in an Authentication-Results header (RFC 8601).

Anyone can write such a header into a mail, so only those naming our host's
authserv-id (PBEM_MAIL_AUTHSERV_ID) count, and only to refuse: a failure in
any of them refuses the mail, so a forged "pass" below the host's own "fail"
changes nothing. Without the setting no header is trusted and none is read.
"""

from __future__ import annotations

from email.message import EmailMessage

import authres

SPF_FAILURES = {"fail", "hardfail"}


def failed_check(message: EmailMessage, authserv_id: str | None) -> str | None:
    """What our host found wrong with the sender (e.g. "dmarc=fail"), or None."""
    if not authserv_id:
        return None
    for value in message.get_all("Authentication-Results", []):
        try:
            header = authres.AuthenticationResultsHeader.parse_value(str(value))
        except authres.AuthResError:  # not ours: our host writes readable headers
            continue
        if str(header.authserv_id).lower() == authserv_id.lower():
            failure = _failure(
                {(str(r.method).lower(), str(r.result).lower()) for r in header.results}
            )
            if failure:
                return failure
    return None


def _failure(results: set[tuple[str, str]]) -> str | None:
    """DMARC failed, or SPF failed with no DKIM signature to vouch for the mail."""
    if ("dmarc", "fail") in results:
        return "dmarc=fail"
    spf_failed = any(method == "spf" and result in SPF_FAILURES for method, result in results)
    if spf_failed and ("dkim", "pass") not in results:
        return "spf=fail and no dkim=pass"
    return None
