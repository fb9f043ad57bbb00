"""The ``memory-es`` command: the store's operations from a shell.

Readable aligned tables for people, ``--json`` for scripts (receipts and facts exactly
as the pydantic models dump them). Values are JSON when they parse as JSON, else plain
strings (``Detroit`` and ``'"Detroit"'`` are the same value; ``42`` is a number).
Times are ISO-8601 and must carry a timezone. A user error prints one line on stderr
and exits with status 2, never a traceback; ``verify-erasure`` and ``audit-verify``
exit with 1 when the report is not complete or not ok.

Examples::

    memory-es demo
    memory-es --store ./mem assert acme user:alex home.city Detroit --valid-from 2024-01-01T00:00Z
    memory-es --store ./mem current acme --entity user:alex
    memory-es --store ./mem as-of acme --valid-at 2025-07-15T00:00Z --known-at 2025-08-01T00:00Z
    memory-es --store ./mem --json sql "select attribute, count(*) n from facts_current group by 1"

Reading order: ``main`` (the command table and the parser built from it) ->
``commands`` (one handler per command) -> ``render`` (tables and JSON) -> ``demo`` and
``bench`` (the two commands that run without the store the options name).
"""

from memory_es.cli.main import main

__all__ = ["main"]
