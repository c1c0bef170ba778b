"""The tokens never reach a log line whole: the filter the program puts on its log
handlers rewrites each record (message, arguments, exception, stack) with every secret
shown as its last four characters."""

from __future__ import annotations

import io
import logging
from urllib.parse import quote

from bot.doors.config import HideSecrets, hide_secrets, last_four

TOKEN = "123456:AAH-real-looking-telegram-token"
SECRET = "webhook-secret-value"


def logged(*secrets: str) -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(HideSecrets(list(secrets)))
    logger = logging.getLogger(f"test.secrets.{id(out)}")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, out


def test_message_arguments_exception_and_stack_are_hidden() -> None:
    log, out = logged(TOKEN, SECRET, "")
    log.info("HTTP Request: POST %s %r", f"https://api.telegram.org/bot{TOKEN}/getMe", "200")
    log.debug(f"setWebhook {{'secret_token': '{SECRET}'}}")
    try:
        raise ValueError(f"The token `{TOKEN}` was rejected by the server.")
    except ValueError:
        log.exception("failed", stack_info=True)
    log.warning("quoted: %s", quote(TOKEN, safe=""))
    text = out.getvalue()
    assert TOKEN not in text and SECRET not in text and quote(TOKEN, safe="") not in text
    assert f"bot{last_four(TOKEN)}/getMe" in text and "Traceback" in text
    assert "ValueError: The token `…oken` was rejected" in text


def test_a_short_secret_shows_nothing_of_itself() -> None:
    assert last_four("123:TEST") == "…"
    assert hide_secrets("a 123:TEST b", ["123:TEST"]) == "a … b"
    assert hide_secrets("nothing to hide", []) == "nothing to hide"


def test_a_message_whose_arguments_do_not_fit_still_goes_out() -> None:
    log, out = logged(TOKEN)
    log.info("two %s %s", TOKEN)  # logging would print an error of its own
    assert TOKEN not in out.getvalue() and "two" in out.getvalue()
