"""Secrets in URLs never reach a log: `redact` blanks them in any text, `RedactSecrets` in every
record Django's logging writes (config/settings.py's LOGGING: django.request's "Not Found: <path>",
api/unavailable.py's "503 for <path>", runserver's request lines), and
config/gunicorn_logger.py in gunicorn's access log.

What is blanked, by `[redacted]`:
- the token of a password-reset link, `/accounts/reset/<uidb64>/<token>/` (Django's
  PasswordResetConfirmView, config/urls.py; valid for PASSWORD_RESET_TIMEOUT, 3 days). The
  uidb64 stays, and so does `set-password`, the placeholder the view redirects to once it has
  put the token in the session;
- the code of a club's invitation link, `/clubs/<slug>/join/<code>/` (web/urls.py: whoever holds
  it joins the club without its admins), raw or percent-encoded (a signed-out visitor is sent to
  `/accounts/login/?next=%2Fclubs%2F...%2Fjoin%2F<code>%2F`); the reset token is blanked in both
  forms too;
- the token of a turn email's unsubscribe link, `/notifications/unsubscribe/<token>/`;
- the value of any query-string parameter whose name holds token, secret, password, passwd, key,
  signature, session or auth (the service reads no secret from a query string, but a client
  may put one there: `?token=...`, `?api_key=...`).
Header values (Authorization, Cookie) are not in any line the service writes; the gunicorn
logger blanks them if an access-log format asks for them.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"

# The reset link's token (not Django's placeholder `set-password`), up to the next `/`, `?`, `#`,
# space or quote. Case-insensitive, so `/Accounts/Reset/` (a 404, logged) is blanked as well.
RESET_TOKEN = re.compile(
    r"(/accounts/reset/[^/?#\s\"]+/)(?!set-password(?:[/?#\s\"]|$))[^/?#\s\"]+", re.I
)
# A club invitation's code, up to the next `/`, `?`, `#`, space or quote.
JOIN_CODE = re.compile(r"(/clubs/[^/?#\s\"]+/join/)[^/?#\s\"]+", re.I)
# A turn email's one-click unsubscribe link, `/notifications/unsubscribe/<token>/` (signed: whoever
# holds it turns a person's turn emails off).
UNSUBSCRIBE_TOKEN = re.compile(r"(/notifications/unsubscribe/)[^/?#\s\"]+", re.I)
# The same two in a percent-encoded URL (a `next=` parameter): `/` is `%2F`, and the secret runs
# to the next `%`, `&`, `;`, `#`, space or quote.
ENCODED_RESET_TOKEN = re.compile(
    r"(%2Faccounts%2Freset%2F[^%&;#\s\"]+%2F)(?!set-password(?:%2F|[&;#\s\"]|$))[^%&;#\s\"]+",
    re.I,
)
ENCODED_JOIN_CODE = re.compile(r"(%2Fclubs%2F[^%&;#\s\"]+%2Fjoin%2F)[^%&;#\s\"]+", re.I)
# A secret-looking query parameter's value: `name=value` after `?`, `&` or `;`.
SECRET_PARAMETER = re.compile(
    r"((?:^|[?&;])[^=&;#\s\"]*(?:token|secret|password|passwd|key|signature|session|auth)"
    r"[^=&;#\s\"]*=)[^&;#\s\"]*",
    re.I,
)


def redact(text: str) -> str:
    """`text` with the secrets of any URL in it blanked."""
    lowered = text.lower()
    if "/reset/" in lowered:
        text = RESET_TOKEN.sub(rf"\g<1>{REDACTED}", text)
    if "/join/" in lowered:
        text = JOIN_CODE.sub(rf"\g<1>{REDACTED}", text)
    if "/unsubscribe/" in lowered:
        text = UNSUBSCRIBE_TOKEN.sub(rf"\g<1>{REDACTED}", text)
    if "%2f" in lowered:
        text = ENCODED_RESET_TOKEN.sub(rf"\g<1>{REDACTED}", text)
        text = ENCODED_JOIN_CODE.sub(rf"\g<1>{REDACTED}", text)
    if "=" in text:
        text = SECRET_PARAMETER.sub(rf"\g<1>{REDACTED}", text)
    return text


class RedactSecrets(logging.Filter):
    """A handler's filter: the record's message, its arguments filled in, with `redact` applied.
    Lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
