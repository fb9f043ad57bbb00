"""``python -m benchmarks [--quick] ...``: the suite, as ``memory-es bench`` runs it."""

from benchmarks.runner import main

raise SystemExit(main())
