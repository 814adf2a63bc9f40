"""gunicorn settings for Warlog's web processes behind deploy/nginx.conf:

    gunicorn -c deploy/gunicorn.conf.py 'warlog.app:create_app()'

(a command-line option overrides its setting here, e.g. `-b 127.0.0.1:9000` or `-w 8`).
Only nginx talks to gunicorn: nginx reads each request whole and feeds slow readers, so a
thread is busy only while the app works. The pages that wait for a judgement wait on
`warlog live` (nginx routes /games/ID/events there); the web app's own long-poll is the
fallback and holds at most half of a process's threads (`post_worker_init` below).
"""

import os
from typing import Any

# Only nginx talks to gunicorn: trust its one X-Forwarded-For / -Proto, so per-client limits
# and logs see the real client (WARLOG_PROXIES; set it in the environment to override).
os.environ.setdefault("WARLOG_PROXIES", "1")

bind = "127.0.0.1:8000"  # behind the proxy only
worker_class = "gthread"
workers = 4  # about one per core
threads = 16  # half of them at most wait on the long-poll fallback; the others answer
timeout = 30  # a worker silent for 30 s (stuck) is killed and replaced
graceful_timeout = 30  # on reload/stop, requests in hand get 30 s to finish
keepalive = 5  # seconds an idle keep-alive connection is kept
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
logger_class = "warlog.ops.logs.GunicornLogger"  # secrets masked in gunicorn's own lines (access log, if enabled)


def post_worker_init(worker: Any) -> None:
    """The long-poll fallback may hold at most half of this process's threads (then 503 with
    Retry-After), whatever `threads` is set to."""
    from warlog.web import pages

    pages.LIVE_WAITERS = max(1, worker.cfg.threads // 2)
