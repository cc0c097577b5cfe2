"""flask-smorest's Blueprint with its page numbers bounded: `?page=` beyond
what the database's integers hold was a 500 (an offset no database takes);
now it is refused with 422, and the OpenAPI document gives the maximum."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest

from pbem.api.schemas import COUNTING, within

# A view method; flask-smorest's decorators (untyped) give it back as it was.
View = TypeVar("View", bound=Callable[..., Any])


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]  # flask-smorest has no types
    def paginate(self, pager: Any = None, **kwargs: Any) -> Callable[[Any], Any]:
        paginated = super().paginate(pager, **kwargs)

        def decorator(func: Any) -> Any:
            wrapper = paginated(func)
            # The one schema class both the parser and the document use.
            schema = wrapper._apidoc["pagination"]["parameters"]["schema"]
            schema._declared_fields["page"].validators.append(within(COUNTING))
            return wrapper

        return decorator
