"""The Telegram adapter (python-telegram-bot 22): updates become the service's commands,
its effects become messages, photos edited in place, and inline keyboards."""
