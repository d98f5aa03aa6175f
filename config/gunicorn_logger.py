"""gunicorn's logger, with the secrets of URLs blanked in its access log (config/redact.py).

The Dockerfile runs gunicorn with `--logger-class config.gunicorn_logger.RedactingLogger`: the
request line (`%(r)s`), the path (`%(U)s`), the query string (`%(q)s`), the referrer (`%(f)s`) and
any header or environ atom a format may name (`%({referer}i)s`, `%({raw_uri}e)s`, ...) go through
`redact`; Authorization and Cookie headers, should a format name them, are blanked whole.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from config.redact import REDACTED, redact

# Atoms holding a URL or a referrer (gunicorn.glogging.Logger.atoms); headers and environ
# variables are all redacted, since a format may name any of them.
URL_ATOMS = ("r", "U", "q", "f")
# Whole values that are credentials.
SECRET_ATOMS = (
    "{authorization}i",
    "{cookie}i",
    "{set-cookie}o",
    "{http_authorization}e",
    "{http_cookie}e",
)


class RedactingLogger(Logger):  # type: ignore[misc]  # gunicorn ships no types: Logger is Any
    """gunicorn's Logger, its access-log atoms redacted."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if not isinstance(value, str):
                continue
            if name in SECRET_ATOMS:
                atoms[name] = REDACTED
            elif name in URL_ATOMS or name.endswith(("}i", "}e")):
                atoms[name] = redact(value)
        return atoms
