"""Table models of the example pane (verdicts, checks) and the plain-text highlight delegate.

Cells are plain text; highlights (contradiction evidence, the search's words, revealed
hidden characters) are character formats applied on a document built with
``setPlainText``, never HTML built from data. Texts from the data are shown with their
hidden characters revealed (``reviewer.review.visible``), the spans moved with them.
Every column header says what it means in a tooltip.

A rationale can be a megabyte: its cell shows the first ``CELL_LIMIT`` characters with an
ellipsis (the rows' heights are computed from what is shown), its tooltip a little more,
and W the whole text (``full_text.py``); a check's cell quotes its first matches and
counts the others.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QPainter, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from reviewer.review.example import CheckRow, VerdictRow
from reviewer.review.search_hits import hit_spans
from reviewer.review.visible import LABEL_LIMIT, Shown, shown
from reviewer.review.visible import plain as visible
from ui.review.text_widgets import HIT_BG, MARK_BG, MARK_FG, MATCH_BG, cut_text
from ui.widgets_util import rich_tooltip

Index = QModelIndex | QPersistentModelIndex
CELL_LIMIT = 500  # characters of a rationale in its cell (the tooltip has more, W all)
MATCHES_LISTED = 20  # a check's matches quoted in its cell
EVIDENCE_BG = QColor("#ffd54f")
BAD = QColor("#b3261e")
GOOD = QColor("#1b6e3a")
__all__ = ["EVIDENCE_BG", "MATCH_BG", "CheckModel", "HighlightDelegate", "Role",
           "VerdictModel", "fit_height", "row_key", "setup_table", "stretch"]


# The roles the models answer; Qt asks each cell for a dozen more while sizing and
# painting a table, and those are answered at once.
_ANSWERED = frozenset(int(r) for r in (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole))


def row_key(row: int) -> str:
    """The number key that flips verdict row ``row`` (0-based): 1–9, then 0; "" beyond."""
    return str(row + 1) if row < 9 else "0" if row == 9 else ""


QUIET = QColor("#757575")


def loud(v: VerdictRow) -> bool:
    """An open contradiction that would change the filter's decision: red, like the
    badge; other contradictions (resolved, or changing nothing) are grey."""
    return v.open_flag and v.decision_changing


class Role(IntEnum):
    """Named roles of the pane's models."""

    Spans = Qt.ItemDataRole.UserRole + 20
    Ident = Qt.ItemDataRole.UserRole + 21
    Contradiction = Qt.ItemDataRole.UserRole + 22
    Effective = Qt.ItemDataRole.UserRole + 23
    Hits = Qt.ItemDataRole.UserRole + 24  # the search's words, as shown
    Marks = Qt.ItemDataRole.UserRole + 25  # revealed hidden characters, as shown


ANSWERED = _ANSWERED | frozenset(int(r) for r in Role)


def yes_no(met: bool) -> str:
    """The judge's word for a verdict ("oui" means the criterion's statement holds)."""
    if met:
        return QCoreApplication.translate("VerdictModel", "yes")
    return QCoreApplication.translate("VerdictModel", "no")


class _RowsModel(QAbstractTableModel):
    """A flat table over a tuple of rows: ``COLS`` names the columns, ``titles()`` heads them."""

    COLS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: tuple[Any, ...] = ()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Rows shown."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """See ``COLS``."""
        return 0 if parent.isValid() else len(self.COLS)

    def titles(self) -> tuple[str, ...]:
        """Column titles (translated in the subclass, whose name is the translation context)."""
        return self.COLS

    def tips(self) -> tuple[str, ...]:
        """What each column means (the header's tooltip)."""
        return ()

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles and, as tooltips, what they mean."""
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            titles = self.titles()
            return titles[section] if 0 <= section < len(titles) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            tips = self.tips()
            return tips[section] if 0 <= section < len(tips) else None
        return None


class VerdictModel(_RowsModel):
    """One row per criterion, in the order the number keys 1–9 and 0 flip them."""

    COLS = ("n", "criterion", "polarity", "judge", "now", "rationale", "flag", "second")
    rows: tuple[VerdictRow, ...]

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.terms: tuple[str, ...] = ()
        self._shown: tuple[Shown, ...] = ()
        self._text: list[tuple[str, ...]] = []

    def set_rows(self, rows: tuple[VerdictRow, ...]) -> None:
        """Replace the verdicts shown (their cell texts made once: a table's layout asks
        for each cell many times)."""
        self.beginResetModel()
        self.rows = rows
        self._shown = tuple(shown(v.rationale, CELL_LIMIT) for v in rows)
        self._text = [tuple(self._display(i, v, c) for c in self.COLS)
                      for i, v in enumerate(rows)]
        self.endResetModel()

    def set_terms(self, terms: tuple[str, ...]) -> None:
        """Highlight the search's words (folded, as ``search_terms`` gives them)."""
        self.terms = terms
        if self.rows:
            col = self.COLS.index("rationale")
            self.dataChanged.emit(self.index(0, col), self.index(len(self.rows) - 1, col))

    def titles(self) -> tuple[str, ...]:
        """Column titles."""
        return ("#", self.tr("Criterion"), self.tr("Polarity"), self.tr("Judge"),
                self.tr("Now\n(with your overrides)"), self.tr("Rationale"),
                self.tr("Contradiction"), self.tr("Second opinion"))

    def tips(self) -> tuple[str, ...]:
        """What each column means."""
        return (
            self.tr("The key that flips this row: 1–9, then 0 for row 10. V puts a cursor "
                    "on the table: the arrows reach every row, Space flips it."),
            self.tr("The judge's criterion (hover a name for its full text)."),
            self.tr("+ a success criterion: \"yes\" is good, \"no\" refuses.\n"
                    "− a failure criterion: \"yes\" means the answer commits the fault "
                    "(a major fault refuses)."),
            self.tr("What the judge said first."),
            self.tr("The verdict the filter's rule uses now: the second opinion applied, "
                    "then your override (✎); red when it refuses the attempt."),
            self.tr("The judge's reasoning; highlighted: what contradicts the verdict, and "
                    "the search's words."),
            self.tr("The rationale says the opposite of the verdict (the detector's score, "
                    "0–1)."),
            self.tr("The criterion judged again alone, and whether it was applied."),
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cells, colours, tooltips and named roles."""
        if role not in ANSWERED or not index.isValid() \
                or not 0 <= index.row() < len(self.rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text[index.row()][index.column()]
        v, col = self.rows[index.row()], self.COLS[index.column()]
        if role == Role.Ident:
            return v.criterion_id
        if role == Role.Contradiction:
            return v.contradiction
        if role == Role.Effective:
            return v.effective
        if role in (Role.Spans, Role.Hits, Role.Marks):
            return self._spans(index.row(), v, col, role)
        if role == Qt.ItemDataRole.ToolTipRole and col == "rationale" \
                and self._shown[index.row()].cut is not None:
            return self._rationale_tooltip(v)
        if role == Qt.ItemDataRole.ToolTipRole and col == "criterion":
            return rich_tooltip(visible(v.text))
        if role == Qt.ItemDataRole.ToolTipRole and col == "flag" and v.contradiction:
            return rich_tooltip(visible(self._flag_tooltip(v)))
        if role == Qt.ItemDataRole.ToolTipRole and col == "second" and v.second_opinion:
            return self._second_tooltip(v)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._colour(v, col)
        if role == Qt.ItemDataRole.BackgroundRole and col == "flag" and loud(v):
            return QBrush(QColor("#fde0dc"))
        return None

    def _spans(self, row: int, v: VerdictRow, col: str, role: int) -> list[tuple[int, int]]:
        """Highlights of the rationale cell, on the shown text."""
        if col != "rationale":
            return []
        view = self._shown[row]
        if role == Role.Marks:
            return list(view.marks)
        if role == Role.Hits:
            return list(view.clip(hit_spans(v.rationale[:view.end], self.terms))[0])
        return list(view.clip(v.evidence_spans)[0])

    def explanation(self, v: VerdictRow) -> str:
        """Why the verdict is flagged, in one translated line: "E-INVENTE non = no fault
        (Invente un fait…); the rationale says: « invente un numéro »"."""
        meaning, gist = v.meaning
        what = {"met": self.tr("met"), "not met": self.tr("not met"),
                "fault committed": self.tr("fault committed"),
                "no fault": self.tr("no fault")}[meaning]
        said = f"« {v.evidence} »" if v.evidence else self.tr("the opposite")
        return (self.tr("%1 %2 = %3 (%4); the rationale says: %5")
                .replace("%1", v.criterion_id).replace("%2", "oui" if v.met else "non")
                .replace("%3", what).replace("%4", gist).replace("%5", said))

    def _flag_tooltip(self, v: VerdictRow) -> str:
        if v.resolved:
            state = self.tr("Resolved: your override or an applied second opinion "
                            "replaced this verdict.")
        elif v.decision_changing:
            state = self.tr("Read the way its rationale reads, this verdict would change "
                            "the filter's decision.")
        else:
            state = self.tr("Read the way its rationale reads, this verdict would not "
                            "change the filter's decision.")
        return self.explanation(v) + "\n" + state

    def _display(self, row: int, v: VerdictRow, col: str) -> str:
        if col == "n":
            return row_key(row)
        if col == "criterion":
            return visible(v.criterion_id)
        if col == "polarity":
            return v.polarity
        if col == "judge":
            return yes_no(v.met)
        if col == "now":
            text = yes_no(v.effective)
            return text + (" ✎" if v.override is not None else "")
        if col == "rationale":  # a long one cut, with an ellipsis (the tooltip: more)
            view = self._shown[row]
            return view.text + ("…" if view.cut is not None else "")
        if col == "flag":
            if not v.contradiction:
                return ""
            if v.resolved:
                return self.tr("✓ resolved")
            if v.decision_changing:
                return self.tr("⚠ contradiction %1").replace("%1", f"{v.score:.2f}")
            return self.tr("contradiction %1").replace("%1", f"{v.score:.2f}")
        second = v.second_opinion
        if second is None:
            return ""
        text = f"{yes_no(second.met)} : {visible(second.rationale, CELL_LIMIT)}"
        if not second.applied:
            text = "⚠ " + self.tr("unreliable — not applied") + " — " + text
        return text

    def _rationale_tooltip(self, v: VerdictRow) -> str:
        """More of a rationale cut in its cell (still bounded), and how to read it all."""
        more = shown(v.rationale, LABEL_LIMIT)
        return rich_tooltip(more.text + "…\n\n" + cut_text(more))

    def _second_tooltip(self, v: VerdictRow) -> str | None:
        """Why a second opinion was not applied, and the judge's reasoning (on demand)."""
        second = v.second_opinion
        assert second is not None
        parts = []
        if not second.applied and second.unreliable_reason:
            parts.append(self.tr("Not applied: %1").replace(
                "%1", visible(second.unreliable_reason)))
        if second.reasoning:
            parts.append(self.tr("Judge's reasoning: %1").replace(
                "%1", visible(second.reasoning)))
        return rich_tooltip("\n\n".join(parts)) if parts else None

    @staticmethod
    def _colour(v: VerdictRow, col: str) -> QBrush | None:
        if col in ("now", "criterion") and v.refuses:
            return QBrush(BAD)
        if col == "flag" and loud(v):
            return QBrush(BAD)
        if col == "flag" and v.contradiction:
            return QBrush(QUIET)
        if col == "second" and v.second_opinion is not None and not v.second_opinion.applied:
            return QBrush(BAD)
        if col == "now" and v.override is not None:
            return QBrush(GOOD)
        return None


class CheckModel(_RowsModel):
    """One row per deterministic check result."""

    COLS = ("check", "mode", "result", "matches", "description")
    rows: tuple[CheckRow, ...]

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.response = ""

    def set_rows(self, rows: tuple[CheckRow, ...], response: str) -> None:
        """Replace the checks shown."""
        self.beginResetModel()
        self.rows = rows
        self.response = response
        self.endResetModel()

    def titles(self) -> tuple[str, ...]:
        """Column titles."""
        return (self.tr("Check"), self.tr("Mode"), self.tr("Result"), self.tr("Matches"),
                self.tr("Description"))

    def tips(self) -> tuple[str, ...]:
        """What each column means."""
        return (
            self.tr("The deterministic check (hover a name for its pattern)."),
            self.tr("forbid: the answer fails when the pattern matches; require: when it "
                    "does not."),
            self.tr("The check's result; F (or V, then Space on the row) marks a failed "
                    "check a false positive."),
            self.tr("What the pattern matched in the answer (highlighted there too)."),
            self.tr("What the check is for."),
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cells, colours, tooltips and named roles."""
        if role not in ANSWERED or not index.isValid() \
                or not 0 <= index.row() < len(self.rows):
            return None
        c, col = self.rows[index.row()], self.COLS[index.column()]
        if role == Role.Ident:
            return c.check_id
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(c, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == "check":
            return rich_tooltip(visible(c.pattern))
        if role == Qt.ItemDataRole.ForegroundRole and col == "result":
            if c.passed or c.false_positive:
                return QBrush(GOOD)
            return QBrush(BAD)
        return None

    def _display(self, c: CheckRow, col: str) -> str:
        if col == "check":
            return visible(c.check_id)
        if col == "mode":
            return self.tr("forbid") if c.mode == "forbid" else self.tr("require")
        if col == "result":
            if c.false_positive:
                text = self.tr("failed → false positive")
            else:
                text = self.tr("passed") if c.passed else self.tr("failed")
            if c.rechecked:  # a version saved since: what it says on this answer
                now = self.tr("v%1 passes") if c.current_passed else self.tr("v%1 fails")
                text += " · " + now.replace("%1", str(c.current_version))
            return text
        if col == "matches":
            found = [visible(self.response[s:e], CELL_LIMIT)
                     for s, e in c.spans[:MATCHES_LISTED]]
            text = ", ".join(f"« {m} »" for m in found)
            left = len(c.spans) - len(found)
            if left:
                text += " " + self.tr("and %1 more").replace("%1", QLocale().toString(left))
            return c.error or text
        return visible(c.description)


class HighlightDelegate(QStyledItemDelegate):
    """Paints a cell's plain text with the spans of ``Role.Spans`` highlighted, wrapped.

    Each cell's document is laid out once per width and kept until the model changes:
    sizing the rows and painting them ask for the same documents many times.
    """

    def __init__(self, view: QTableView, colour: QColor = EVIDENCE_BG) -> None:
        super().__init__(view)
        self.view = view
        self.colour = colour
        self._docs: dict[tuple[int, int, int], QTextDocument] = {}
        model = view.model()
        if model is not None:
            for signal in (model.modelReset, model.dataChanged, model.layoutChanged):
                signal.connect(self._docs.clear)

    def _document(self, option: QStyleOptionViewItem, index: Index, width: int) -> QTextDocument:
        key = (index.row(), index.column(), max(width, 40))
        doc = self._docs.get(key)
        if doc is None:
            doc = self._docs[key] = self._make(option, index, width)
        return doc

    def _make(self, option: QStyleOptionViewItem, index: Index, width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setPlainText(str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
        doc.setTextWidth(max(width, 40))
        cursor = QTextCursor(doc)
        length = doc.characterCount() - 1
        for role, fmt in ((Role.Spans, self._format(self.colour)),
                          (Role.Hits, self._format(HIT_BG)),
                          (Role.Marks, self._format(MARK_BG, MARK_FG))):
            for start, end in index.data(role) or []:
                if 0 <= start < end <= length:
                    cursor.setPosition(start)
                    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(fmt)
        return doc

    @staticmethod
    def _format(background: QColor, foreground: QColor | None = None) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setBackground(background)
        if foreground is None:
            fmt.setFontWeight(700)
        else:
            fmt.setForeground(foreground)
        return fmt

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        """Draw the background as usual, then the highlighted document."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = self.view.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, self.view)
        rect = option.rect
        doc = self._document(option, index, rect.width() - 4)
        painter.save()
        painter.translate(rect.left() + 2, rect.top() + 1)
        doc.drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """Height of the wrapped text at the column's width."""
        width = self.view.columnWidth(index.column())
        doc = self._document(option, index, width - 4)
        return QSize(width, int(doc.size().height()) + 2)


def setup_table(view: QTableView) -> None:
    """Read-only, wrapped, row-selecting table whose rows fit their contents."""
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setWordWrap(True)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)


def fit_height(view: QTableView) -> None:
    """Make the table exactly as tall as its rows (it lives in a scrolling pane)."""
    view.resizeRowsToContents()
    model = view.model()
    rows = model.rowCount() if model is not None else 0
    height = view.horizontalHeader().height() + 2 * view.frameWidth()
    height += sum(view.rowHeight(r) for r in range(rows))
    view.setFixedHeight(height + 2)


# The stretching column (the rationale, the check's match) keeps at least this part of
# its table's width; the fixed columns shrink in proportion when that leaves them less
# (seventh hostile pass, L1: at 1200 px the Rationale column was two letters wide), never
# below FLOOR_PX.
STRETCH_SHARE = 0.4
FLOOR_PX = 24


class ColumnWidths(QObject):
    """Fixed widths for short columns, the rest for one stretching column, which keeps
    ``STRETCH_SHARE`` of the table; a column empty in every row (``set_empty``) is as
    narrow as its title. Widths are worked out again when the table is resized."""

    def __init__(self, view: QTableView, column: int, widths: dict[int, int]) -> None:
        super().__init__(view)
        self.view, self.column, self.widths = view, column, dict(widths)
        self.empty: frozenset[int] = frozenset()
        header = view.horizontalHeader()
        for col in widths:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        view.installEventFilter(self)
        self.apply()

    def set_empty(self, columns: frozenset[int]) -> None:
        """The fixed columns with nothing in any row (narrowed to their title)."""
        if columns != self.empty:
            self.empty = columns
            self.apply()

    def _title(self, col: int) -> int:
        model = self.view.model()
        title = model.headerData(col, Qt.Orientation.Horizontal) if model is not None else ""
        metrics = self.view.horizontalHeader().fontMetrics()
        return max((metrics.horizontalAdvance(line) for line in str(title or "").split("\n")),
                   default=0) + 12

    def apply(self) -> None:
        """Set the fixed columns' widths for the table's present width."""
        wanted = {c: min(w, self._title(c)) if c in self.empty else w
                  for c, w in self.widths.items()}
        room = self.view.viewport().width() * (1 - STRETCH_SHARE)
        total = sum(wanted.values())
        scale = min(1.0, room / total) if total > 0 and room > 0 else 1.0
        for col, width in wanted.items():
            self.view.setColumnWidth(col, max(min(width, FLOOR_PX), int(width * scale)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The table's new width: the fixed columns again."""
        if watched is self.view and event.type() == QEvent.Type.Resize:
            self.apply()
        return False


def stretch(view: QTableView, column: int, widths: dict[int, int]) -> ColumnWidths:
    """Fixed widths for short columns, the rest for one stretching column (see
    ``ColumnWidths``)."""
    return ColumnWidths(view, column, widths)
