"""Messages shown to a client outside the App (refusals, farewells: the catalogue's
``ssh.*`` keys), in the language its locale asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from protocol.i18n import Lang, t

if TYPE_CHECKING:
    pass


def message(key: str, lang: Lang = "en", **values: object) -> str:
    """A message for a client outside the App, in ``lang`` (the catalogue's ``ssh.<key>``)."""
    return t(f"ssh.{key}", lang, **values)


def lang_from_env(env: dict[str, str] | Any) -> Literal["en", "zh"] | None:
    """Language from the client's locale variables, if it sent any."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = str(env.get(var, "") or "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return None
