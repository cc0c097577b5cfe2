"""Celery: the app bound to Flask (celery_app.py) and the tasks (tasks.py).

`celery -A worker.app worker` and `pbem worker` start the same worker.
"""
