"""The web pages' data (issue 34): a key's page as JSON-ready data built from the room's
view only, asked through :class:`~bot.core.service.GameService` (``web_*``)."""
