"""What the server does, independent of how a request came in (API, pages, mail, CLI).

Service functions take a SQLAlchemy session and leave committing to the caller,
except the pipeline, which owns its transaction because it holds the game lock.
"""

from pbem.services import names  # noqa: F401  (checks every name set, whoever sets it)
