"""The audit report: one self-contained HTML file an auditor can open anywhere.

An auditor or a data-protection officer needs to see, in one place and without
installing anything, what the store holds about a subject and whether its promises
held: the facts now and as believed at chosen times, the bitemporal diagrams, the drift
chains with their reasons, what was served to whom, every deletion receipt with a fresh
residue report, and the ``audit_verify`` result (against an anchor when one is given).

The file is self-contained: inline CSS, diagrams as PNG data URIs, one small inline
script that only counts what rendered; a Content-Security-Policy forbids every network
request, so opening it reaches nothing. It is written to a temporary file and renamed,
so a failure leaves no half-written report.

The report holds personal data in clear. It is not an export the store tracks: a purge
made later does not reach a report written before it, so keep and delete reports like any
other document about a person.

>>> from memory_es import report
>>> report.write(store, "acme", "report.html", entity="user:alex")   # doctest: +SKIP
"""

from memory_es.report.builder import SECTIONS, build, load_anchor, write

__all__ = ["SECTIONS", "build", "load_anchor", "write"]
