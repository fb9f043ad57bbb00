"""``python -m memory_es.cli``: the same as the ``memory-es`` command."""

import sys

from memory_es.cli.main import main

sys.exit(main())
