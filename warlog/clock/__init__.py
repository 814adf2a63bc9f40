"""Deadlines and clocks for play by e-mail (days per move, or a chess clock in days), fired by
the worker's periodic sweep; see warlog.clock.clock."""

from warlog.clock.clock import ClockAct, ClockError, Deadline, GameClock, TimeControl

__all__ = ["ClockAct", "ClockError", "Deadline", "GameClock", "TimeControl"]
