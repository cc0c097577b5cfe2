"""The clock tests drive the API and the pages with the same fixtures as their tests."""

from tests.server.test_api import api, token_for  # noqa: F401
from tests.server.web.conftest import browser, signed_in_as  # noqa: F401
