"""Notifications by e-mail (SMTP, or the embedded outbox) and signed webhooks, sent in the
background with retries; see warlog.notify.notifier."""

from warlog.notify.notifier import KINDS, Delivery, Notifier, Prefs

__all__ = ["KINDS", "Delivery", "Notifier", "Prefs"]
