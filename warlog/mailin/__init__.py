"""Playing by mail: turn mails that show the position and the legal actions with codes, a
signed single-use reply address per seat and mail, and `warlog mail-in`, the SMTP/LMTP listener
that takes the replies, plays their codes and answers each one (docs/mail.md)."""
