"""The platform-neutral game service and its front doors (Discord, Telegram, console)."""
