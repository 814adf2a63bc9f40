"""UP FRONT structure with an authored core and the appendix "In the Mountains" (seed 004).

Rules: the appendix's sections cited as "UFM n". What is the appendix's, the public core's and
ours: docs/games/up-front.md and docs/games/up-front-data.md.
"""

from rules.up_front.game import UpFrontMountains

__all__ = ["UpFrontMountains"]
