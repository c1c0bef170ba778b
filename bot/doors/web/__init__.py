"""The web door (issue 34): read-only pages of games, tournaments and communities, served
from the service's ``web_*`` questions. This part serves their JSON (docs/web.md)."""

from bot.doors.web.app import WebDoor, make_app

__all__ = ["WebDoor", "make_app"]
