"""The contract between screens and rooms, shared by ``server/`` and ``tui/``.

Textual-free and asyncio-free (``tests/test_layers.py`` keeps it so): the
room-client protocols and the messages they carry (:mod:`protocol.contract`),
identity comparison (:mod:`protocol.names`), the message catalogue and its
formatter (:mod:`protocol.i18n`, :mod:`protocol.catalogue`), and the JSON wire
form of every command and snapshot (:mod:`protocol.wire`).
"""
