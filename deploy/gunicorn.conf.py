"""gunicorn settings for Warlog's web processes behind deploy/nginx.conf:

    gunicorn -c deploy/gunicorn.conf.py 'warlog.app:create_app()'

(a command-line option overrides its setting here, e.g. `-b 127.0.0.1:9000` or `-w 8`).
Only nginx talks to gunicorn: nginx reads each request whole and feeds slow readers, so a
thread is busy only while the app works. The pages that wait for a judgement wait on
`warlog live` (nginx routes /games/ID/events there); the web app's own long-poll is the
fallback and holds at most `warlog.pages.LIVE_WAITERS` threads of a process.
"""

bind = "127.0.0.1:8000"  # behind the proxy only
worker_class = "gthread"
workers = 4  # about one per core
threads = 16  # well above LIVE_WAITERS (8), so requests are answered while some pages wait
timeout = 30  # a worker silent for 30 s (stuck) is killed and replaced
graceful_timeout = 30  # on reload/stop, requests in hand get 30 s to finish
keepalive = 5  # seconds an idle keep-alive connection is kept
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
