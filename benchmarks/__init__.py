"""The memory-es benchmark suite (issue 5): ``memory-es bench [--quick]``.

Reading order: ``runner`` (what runs, in which order) -> ``speed`` and ``baselines``
(throughput and latency beside the floor, a hand-written table and the peer) ->
``ablation`` with its hand-written ``ablation_cases`` -> ``lifescript`` (longitudinal
currency) -> ``profiles`` -> ``report`` (JSON, Markdown, PNG).
"""
