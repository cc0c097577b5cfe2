"""Entry point for the `celery` command: `celery -A worker.app worker`."""

from pbem import create_app

flask_app = create_app()
celery_app = flask_app.extensions["celery"]
