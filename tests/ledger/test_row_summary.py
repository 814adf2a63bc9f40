"""A listing row's summary (ledger.sqlstore.row_summary): the parsed `active_seats` texts are
kept, yet each summary gets a list of its own, and the kept texts are bounded."""

from __future__ import annotations

from ledger import sqlstore

ROW = ("g1", "assault-on-belgium", "may-1940", "active", "2026-01-02T03:04:05.000000Z", 4, '["belgium"]', 4, 3, 0)


def test_each_summary_has_its_own_list_of_active_seats():
    one, two = sqlstore.row_summary(ROW), sqlstore.row_summary(ROW)
    assert one.active_seats == two.active_seats == ["belgium"] and one.active_seats is not two.active_seats
    one.active_seats.append("germany")
    assert sqlstore.row_summary(ROW).active_seats == ["belgium"]
    assert sqlstore.row_summary((*ROW[:6], "[]", *ROW[7:])).active_seats == []


def test_a_row_with_its_pending_seq_and_without():
    with_pending = sqlstore.row_summary((*ROW, 4))
    assert with_pending.pending_known and with_pending.oldest_pending == 4 and with_pending.pending
    plain = sqlstore.row_summary(ROW)
    assert not plain.pending_known and plain.oldest_pending is None and plain.pending and plain.sandbox is False


def test_the_parsed_seat_texts_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(sqlstore, "SEATS_KEPT", 3)
    monkeypatch.setattr(sqlstore, "_SEATS", {})
    for i in range(10):
        assert sqlstore.row_summary((*ROW[:6], f'["s{i}"]', *ROW[7:])).active_seats == [f"s{i}"]
        assert len(sqlstore._SEATS) <= 3
