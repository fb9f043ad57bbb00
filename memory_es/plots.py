"""Pictures of time: bitemporal diagrams and drift chains as matplotlib figures.

Auditors would rather look than read. :func:`bitemporal` draws an entity's facts the way
Snodgrass and XTDB explain bitemporality: valid time along x, transaction time along y,
one rectangle per version (``[valid_from, valid_until)`` by ``[recorded_at, recorded_until)``),
labelled with its value and state. A supersede shows as a version closed in transaction
time with trimmed versions above it; a correction as the same valid interval re-opened
with a new value; purged chains as hatched placeholders spanning the transaction time
their (now shredded) events covered. :func:`chain` draws one drift chain as a timeline:
each fact's valid interval, oldest first, and below it every event with its reason.

Figures are built on the Agg canvas without ``pyplot`` (no global state, no display
needed), so they render in servers and tests, and notebooks show them inline. Needs the
``plots`` extra (``pip install 'memory-es[plots]'``, i.e. matplotlib).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from memory_es._files import atomic_write
from memory_es.domain.lifecycle import RETRIEVABLE_STATES
from memory_es.domain.validation import is_canonical_entity
from memory_es.errors import InvalidInput, NotFound
from memory_es.services.audit import HistoryEntry
from memory_es.store import MemoryStore

__all__ = ["FORMATS", "bitemporal", "chain", "save"]

FORMATS = ("png", "svg")
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7",
           "#9c755f", "#e15759", "#bab0ac")
INELIGIBLE = "#9a9a9a"
PURGED = "#c44e52"
LABEL = 26
"""Characters of a value shown in a rectangle's label."""


@dataclass(frozen=True)
class _Version:
    """One row of ``fact_versions`` with the fields a picture needs."""

    fact_id: str
    attribute: str
    value: Any
    state: str
    present_state: str
    valid_from: datetime
    valid_until: datetime | None
    recorded_at: datetime
    recorded_until: datetime | None
    supersedes: tuple[str, ...]
    chain_id: str
    stream_id: str
    masked: bool
    asserted_by: str
    source: str | None

    @classmethod
    def of(cls, row: dict[str, Any]) -> _Version:
        raw = row["value"]
        return cls(
            fact_id=row["fact_id"], attribute=row["attribute"],
            value=json.loads(raw) if isinstance(raw, str) else raw, state=row["state"],
            present_state=row.get("present_state") or row["state"],
            valid_from=_utc(row["valid_from"]), valid_until=_opt(row["valid_until"]),
            recorded_at=_utc(row["recorded_at"]), recorded_until=_opt(row["recorded_until"]),
            supersedes=tuple(row.get("supersedes") or ()), chain_id=row["chain_id"],
            stream_id=row.get("stream_id") or "", masked=bool(row.get("masked")),
            asserted_by=row.get("asserted_by") or "", source=row.get("source"))


@dataclass(frozen=True)
class _Purged:
    """A purged drift chain: the transaction time its shredded events covered."""

    receipt_id: str
    fact_ids: tuple[str, ...]
    first: datetime
    purged_at: datetime


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _opt(value: datetime | None) -> datetime | None:
    return None if value is None else _utc(value)


def _short(value: Any, masked: bool = False) -> str:
    if masked:
        return "[masked]"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= LABEL else text[: LABEL - 1] + "…"


# reading the store ----------------------------------------------------------------------

def _versions(store: MemoryStore, tenant: str, *, entity: str | None = None,
              chain_id: str | None = None, fact_id: str | None = None) -> list[_Version]:
    table = store.table("fact_versions", tenant=tenant)
    for column, wanted in (("entity", entity), ("chain_id", chain_id), ("fact_id", fact_id)):
        if wanted is not None:
            table = table.filter(pc.equal(table[column], wanted))
    rows = [_Version.of(r) for r in table.to_pylist()]
    return sorted(rows, key=lambda v: (v.recorded_at, v.valid_from, v.fact_id))


def _purged(store: MemoryStore, tenant: str, streams: set[str]) -> list[_Purged]:
    """Chains purged out of these streams, from the receipts and their shredded history.

    A whole-entity purge also destroys the link from the entity id to its stream (by
    design), so only chains purged while the entity kept other facts can be placed."""
    out: list[_Purged] = []
    for receipt in store.receipts():
        if (receipt.get("tenant") != tenant or receipt.get("stream_id") not in streams
                or receipt.get("effect", "purge") != "purge" or not receipt.get("fact_ids")):
            continue
        fact_ids = tuple(receipt["fact_ids"])
        purged_at = _utc(datetime.fromisoformat(receipt["recorded_at"])
                         if isinstance(receipt["recorded_at"], str) else receipt["recorded_at"])
        try:
            history = store.history(tenant, fact_ids[0])
        except NotFound:
            history = []
        times = [e.recorded_at for e in history if e.shredded] or [purged_at]
        out.append(_Purged(str(receipt.get("receipt_id")), fact_ids, _utc(min(times)),
                           purged_at))
    return out


# drawing --------------------------------------------------------------------------------

def _span(times: Sequence[datetime], minimum: timedelta) -> tuple[datetime, datetime]:
    low, high = min(times), max(times)
    pad = max((high - low) * 0.04, minimum)
    return low - pad, high + pad


def _num(t: datetime) -> float:
    """matplotlib's date number of an aware time."""
    return float(date2num(t))  # type: ignore[no-untyped-call]  # matplotlib.dates is unannotated


def _time_axis(axis: Any) -> None:
    locator = AutoDateLocator()  # type: ignore[no-untyped-call]  # unannotated in matplotlib
    axis.set_major_locator(locator)
    axis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]


def _stamp(t: datetime, same_day: bool) -> str:
    t = _utc(t)
    return t.strftime("%H:%M:%S.%f")[:-3] if same_day else t.strftime("%Y-%m-%d %H:%M:%S")


class _Steps:
    """Transaction time as steps: one per distinct commit time, labelled with the time.

    Commits are discrete events, often milliseconds apart while valid time spans years;
    an ordinal axis keeps every version's rectangle readable whatever the gaps."""

    def __init__(self, times: Sequence[datetime]) -> None:
        self.times = sorted(set(times))
        self.index = {t: i for i, t in enumerate(self.times)}
        self.top = len(self.times)

    def y(self, t: datetime | None) -> float:
        return float(self.top if t is None else self.index[t])

    def decorate(self, ax: Axes) -> None:
        ax.set_ylim(-0.2, self.top + 0.2)
        same_day = len({t.date() for t in self.times}) <= 1
        every = max(1, len(self.times) // 12)
        ticks = list(range(0, len(self.times), every))
        ax.set_yticks([float(i) for i in ticks] + [float(self.top)],
                      [_stamp(self.times[i], same_day) for i in ticks] + ["now"], fontsize=7)
        ax.set_ylabel("transaction time (UTC)", fontsize=8)


def _label(version: _Version, earlier: dict[str, list[_Version]]) -> str:
    parts = [_short(version.value, version.masked), version.state]
    if version.present_state != version.state:
        parts.append(f"now {version.present_state}")
    before = [v for v in earlier.get(version.fact_id, ())
              if v.recorded_at < version.recorded_at and v.value != version.value]
    if before:
        parts.append("corrected")
    elif version.supersedes:
        parts.append("supersedes")
    return " · ".join(parts)


def _panel(ax: Axes, title: str, versions: Sequence[_Version], x_span: tuple[datetime, datetime],
           now: datetime) -> None:
    steps = _Steps([t for v in versions for t in (v.recorded_at, v.recorded_until) if t])
    facts = list(dict.fromkeys(v.fact_id for v in versions))
    colors = {f: PALETTE[i % len(PALETTE)] for i, f in enumerate(facts)}
    by_fact: dict[str, list[_Version]] = {}
    for v in versions:
        by_fact.setdefault(v.fact_id, []).append(v)
    for v in versions:
        closed = v.recorded_until is not None
        eligible = v.present_state in RETRIEVABLE_STATES
        face = colors[v.fact_id] if eligible else INELIGIBLE
        left = _num(v.valid_from)
        bottom = steps.y(v.recorded_at)
        patch = ax.add_patch(Rectangle(
            (left, bottom), _num(v.valid_until or x_span[1]) - left,
            steps.y(v.recorded_until) - bottom, facecolor=face, alpha=0.3 if closed else 0.65,
            edgecolor=face if eligible else PURGED, linestyle="--" if closed else "-",
            linewidth=1.2))
        label = ax.annotate(_label(v, by_fact), xy=(left, bottom), xytext=(3, 3),
                            textcoords="offset points", fontsize=7.5, va="bottom", ha="left",
                            annotation_clip=True, clip_on=True)
        label.set_clip_path(patch)  # a narrow version's label never runs over its neighbour
    ax.set_xlim(_num(x_span[0]), _num(x_span[1]))
    ax.axvline(_num(now), color="#555555", linestyle=":", linewidth=1)
    _time_axis(ax.xaxis)
    steps.decorate(ax)
    ax.grid(alpha=0.2, axis="x")
    ax.set_title(title, fontsize=10, loc="left")


def _purged_panel(ax: Axes, purged: Sequence[_Purged], x_span: tuple[datetime, datetime],
                  now: datetime) -> None:
    steps = _Steps([t for p in purged for t in (p.first, p.purged_at)])
    for p in purged:
        bottom = steps.y(p.first)
        height = max(steps.y(p.purged_at) - bottom, 0.5)
        ax.add_patch(Rectangle((_num(x_span[0]), bottom), _num(x_span[1]) - _num(x_span[0]),
                               height, facecolor="none", edgecolor=PURGED, hatch="///",
                               linewidth=1.0))
        ax.annotate(f"purged chain of {len(p.fact_ids)} fact(s) · content shredded · receipt"
                    f" {p.receipt_id[:13]}", xy=(_num(x_span[0]), bottom), xytext=(4, 3),
                    textcoords="offset points", fontsize=7.5, color=PURGED)
    ax.set_xlim(_num(x_span[0]), _num(x_span[1]))
    ax.axvline(_num(now), color="#555555", linestyle=":", linewidth=1)
    _time_axis(ax.xaxis)
    steps.decorate(ax)
    ax.set_title("purged chains (valid time, attribute and values shredded)", fontsize=10,
                 loc="left")


def bitemporal(store: MemoryStore, tenant: str, entity: str,
               attribute: str | None = None) -> Figure:
    """The bitemporal diagram of an entity's facts, one panel per attribute.

    Why a picture: a supersede, a correction and a retroactive assertion look alike in a
    table of rows but have different shapes here (a rectangle closed and re-opened
    trimmed, one stacked on the same valid interval, one reaching back in valid time).
    Valid time is continuous; transaction time is drawn as steps, one per commit (their
    times on the axis), so versions committed milliseconds apart stay readable. The
    dotted line marks the store's now; open ends run to the edge.

    Args:
        store: an open store.
        tenant: the tenant to read.
        entity: the canonical entity id (``user:alex``).
        attribute: draw only this attribute (default: every attribute, plus purged chains).

    Returns:
        A matplotlib ``Figure`` (save it with :func:`save` or ``figure.savefig``).

    Raises:
        InvalidInput: ``entity`` is not a canonical id.
        NotFound: the tenant holds no version of that entity (or attribute).
    """
    if not is_canonical_entity(entity):
        raise InvalidInput("entity must be a canonical id 'namespace:local' (e.g. user:alex)")
    now = store.now()
    versions = _versions(store, tenant, entity=entity)
    purged = _purged(store, tenant, {v.stream_id for v in versions}) if attribute is None else []
    if attribute is not None:
        versions = [v for v in versions if v.attribute == attribute]
    if not versions and not purged:
        raise NotFound(f"no versions of that entity{' and attribute' if attribute else ''} in"
                       f" tenant {tenant} (a purged entity cannot be linked back to its id)")
    attributes = sorted({v.attribute for v in versions})
    x_span = _span([now, *(t for v in versions for t in (v.valid_from, v.valid_until) if t)],
                   timedelta(days=1))
    panels = len(attributes) + (1 if purged else 0)
    figure = Figure(figsize=(10, 1.3 + 2.6 * panels), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    for ax, name in zip(axes, attributes, strict=False):
        _panel(ax, name, [v for v in versions if v.attribute == name], x_span, now)
    if purged:
        _purged_panel(axes[-1], purged, x_span, now)
    axes[-1].set_xlabel("valid time")
    figure.suptitle(f"{entity} in {tenant}: one rectangle per version (transaction time in"
                     " steps, one per commit)", fontsize=11)
    figure.legend(handles=[
        Patch(facecolor=PALETTE[0], alpha=0.65, label="present belief"),
        Patch(facecolor=PALETTE[0], alpha=0.3, linestyle="--", edgecolor=PALETTE[0],
              label="closed in transaction time (superseded, trimmed or corrected)"),
        Patch(facecolor=INELIGIBLE, edgecolor=PURGED, label="ineligible now (forgotten, ...)"),
        Patch(facecolor="none", edgecolor=PURGED, hatch="///", label="purged (shredded)")],
        loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    return figure


def _event_label(entry: HistoryEntry, same_day: bool) -> str:
    parts = [_stamp(entry.recorded_at, same_day), entry.op]
    if entry.shredded:
        return " · ".join([*parts, "[shredded]"])
    if entry.value is not None:
        parts.append(_short(entry.value))
    if entry.state:
        parts.append(entry.state)
    who = " / ".join(x for x in (entry.asserted_by, entry.source) if x)
    if who:
        parts.append(who)
    if entry.reason:
        parts.append(f"why: {entry.reason}")
    return " · ".join(parts)


def chain(store: MemoryStore, tenant: str, fact_id: str) -> Figure:
    """The drift chain containing ``fact_id`` as a timeline, with every event's reason.

    Top: each fact of the chain (oldest at the top) over valid time, as the store
    believes it now, with what it superseded and what it was corrected from; forgotten
    facts are kept (grey) because an auditor needs them. Bottom: every event of the
    chain (``store.history``) in commit order, with who asserted it and why. A purged
    chain draws its shredded events as hatched placeholders.

    Raises:
        NotFound: the fact id is unknown in that tenant.
    """
    now = store.now()
    history = store.history(tenant, fact_id)
    mine = _versions(store, tenant, fact_id=fact_id)
    versions = _versions(store, tenant, chain_id=mine[0].chain_id) if mine else []
    facts = list(dict.fromkeys(v.fact_id for v in versions))
    figure = Figure(figsize=(10, 2.4 + 0.42 * (len(history) + max(len(facts), 1))),
                    layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, height_ratios=(max(len(facts), 1) + 1,
                                                       len(history) + 1))
    if versions:
        _facts_panel(top, versions, facts, now)
    else:
        top.text(0.5, 0.5, "chain purged: its facts and values are shredded", ha="center",
                 va="center", transform=top.transAxes, color=PURGED)
        top.set_xticks([])
        top.set_yticks([])
    top.set_title("facts of the chain, oldest first (arrows: supersedes)", fontsize=10,
                  loc="left")
    _timeline(bottom, history)
    figure.suptitle(f"drift chain of {fact_id} in {tenant}", fontsize=11)
    return figure


def _facts_panel(ax: Axes, versions: Sequence[_Version], facts: Sequence[str],
                 now: datetime) -> None:
    x_span = _span([now, *(t for v in versions for t in (v.valid_from, v.valid_until) if t)],
                   timedelta(days=1))
    rows = {f: i for i, f in enumerate(facts)}
    for i, f in enumerate(facts):
        own = [v for v in versions if v.fact_id == f]
        shown = [v for v in own if v.recorded_until is None] or own[-1:]
        first = shown[0]
        eligible = first.present_state in RETRIEVABLE_STATES
        color = PALETTE[i % len(PALETTE)] if eligible else INELIGIBLE
        for v in shown:
            left = _num(v.valid_from)
            ax.barh(i, _num(v.valid_until or x_span[1]) - left, left=left, height=0.55,
                    color=color, alpha=0.7)
        text = f"{_short(first.value, first.masked)} · {first.present_state}"
        text += f" · {first.asserted_by}" + (f" / {first.source}" if first.source else "")
        was = [v for v in own if v.value != first.value]
        if was:
            text += f" · corrected from {_short(was[0].value, was[0].masked)}"
        ax.annotate(text, xy=(_num(first.valid_from), i), xytext=(3, 0),
                    textcoords="offset points", va="center", fontsize=8)
        for earlier in first.supersedes:
            if earlier in rows:
                ax.annotate("", xy=(_num(first.valid_from), i),
                            xytext=(_num(first.valid_from), rows[earlier]),
                            arrowprops={"arrowstyle": "->", "color": "#333333"})
    ax.set_xlim(_num(x_span[0]), _num(x_span[1]))
    ax.axvline(_num(now), color="#555555", linestyle=":", linewidth=1)
    _time_axis(ax.xaxis)
    ax.set_xlabel("valid time")
    ax.set_yticks(range(len(facts)), [f[-14:] for f in facts], fontsize=7)
    ax.set_ylim(len(facts) - 0.4, -0.6)


def _timeline(ax: Axes, history: Sequence[HistoryEntry]) -> None:
    same_day = len({e.recorded_at.date() for e in history}) <= 1
    for i, entry in enumerate(history):
        if entry.shredded:
            ax.barh(i, 1.0, left=0.0, height=0.6, color="none", edgecolor=PURGED, hatch="///")
        ax.plot([0.01], [i], marker="o", color=PURGED if entry.shredded else "#333333")
        ax.annotate(_event_label(entry, same_day), xy=(0.01, i), xytext=(8, 0),
                    textcoords="offset points", va="center", fontsize=8,
                    color=PURGED if entry.shredded else "black")
    ax.set_xlim(0, 1)
    ax.set_ylim(len(history) - 0.4, -0.6)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("events (store.history) in commit order, with their reasons (times UTC)",
                 fontsize=10, loc="left")


def save(figure: Figure, path: str | Path) -> Path:
    """Write a figure as PNG or SVG (by the file's suffix), atomically.

    The figure is rendered to a temporary file beside ``path`` and renamed over it, so a
    failure never leaves a half-written file.

    Raises:
        InvalidInput: the suffix is not ``.png`` or ``.svg``, or the folder does not exist.
        MemoryESError: the file system refused the write (nothing is left behind).
    """
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InvalidInput(f"plots are written as {' or '.join(FORMATS)}; give a file name"
                           " ending in .png or .svg")
    metadata = {"Software": None} if fmt == "png" else {"Date": None}
    return atomic_write(path, lambda out: figure.savefig(out, format=fmt, dpi=110,
                                                         metadata=metadata), "figure")
