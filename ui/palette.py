"""Every colour the window uses, in one place, so the lock tint and the ink look the same
everywhere (the editor, the draft overlay and the diff review show the same locked text) and a
theme change is one file.

Colours are hex strings (``*_HEX``, for style sheets) or :class:`QColor` constants (for
painting and text formats); a constant used both ways is defined once as hex.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

# --- shared ink and accents ----------------------------------------------------------------------
INK_HEX = "#1f2328"
ACCENT_HEX = "#3d6fd1"  # the draft frame, a running engine, a checked chip
INK = QColor(INK_HEX)
ACCENT = QColor(ACCENT_HEX)
LOCK_TINT = QColor(255, 210, 92, 112)  # amber, translucent so highlighting shows through
LOCK_INK = QColor("#b7791f")  # the gutter's padlock
SECONDARY_HEX = "#57606a"  # captions, details, the status bar's labels
MUTED_HEX = "#7a828c"  # notes, the overlay's footer
FAINT_HEX = "#9aa1a9"  # line numbers, unchanged text beside a diff
BORDER_HEX = "#d0d7de"
LINK_BLUE_HEX = "#0b3d91"  # headings, key names, a checked chip's text
HOVER_BORDER_HEX = "#9db4dc"

# --- the draft overlay ---------------------------------------------------------------------------
OVERLAY_PAPER = QColor("#fbfcff")
OVERLAY_BORDER = QColor(HOVER_BORDER_HEX)
OVERLAY_SHADOW = QColor(20, 40, 80, 28)
OVERLAY_MUTED = QColor(MUTED_HEX)
NOISE_INK = QColor("#c4cad3")
PROVISIONAL_INK = QColor("#5d6672")

# --- the diff review -----------------------------------------------------------------------------
DIFF_FAINT = QColor(FAINT_HEX)
REMOVED_INK = QColor("#a4161a")
REMOVED_PAPER = QColor("#fde4e4")
ADDED_INK = QColor("#116329")
ADDED_PAPER = QColor("#d7f5dd")
KEPT_PAPER = QColor("#eef1f4")

# --- Markdown highlighting -----------------------------------------------------------------------
MARKUP_INK = QColor("#8c959f")
HEADING_INK = QColor(LINK_BLUE_HEX)
LINK_INK = QColor("#0a58ca")
CODE_INK = QColor("#8a3a00")
CODE_PAPER = QColor("#f3f1ec")
QUOTE_INK = QColor("#4b6356")
LIST_INK = QColor("#9a5b00")
MISSPELT_INK = QColor("#d1242f")  # the wavy underline under a misspelt word

# --- the gutter ----------------------------------------------------------------------------------
GUTTER_PAPER = QColor("#f6f7f9")
GUTTER_INK = QColor(FAINT_HEX)
GUTTER_RULE = QColor("#e3e6ea")

# --- status bar, banners, bars -------------------------------------------------------------------
BUSY_HEX = "#d4a72c"  # the engine is busy with something other than drafting
ENGINE_DOT_HEX = {
    "none": "#afb8c1",
    "loading": BUSY_HEX,
    "cancelling": BUSY_HEX,
    "ready": "#2da44e",
    "running": ACCENT_HEX,
    "stopped": "#cf222e",
}
BANNER_PAPER_HEX = "#fff1f0"
BANNER_BORDER_HEX = "#f3b5b0"
BANNER_INK_HEX = "#82071e"
WARNING_PAPER_HEX = "#fff8e1"
WARNING_BORDER_HEX = "#f0c36d"
FIND_STATUS_HEX = "#6b6b6b"
BAR_PAPER_HEX = "#fbfcfe"
BAR_RULE_HEX = "#d8dee4"
CHIP_PAPER_HEX = "#f6f8fa"
CHIP_INK_HEX = "#24292f"
CHIP_HOVER_HEX = "#eef2f7"
CHIP_CHECKED_HEX = "#dbe7fb"

# --- the benchmark chart -------------------------------------------------------------------------
CHART_DIFFUSION = QColor("#1f77b4")
CHART_AUTOREGRESSIVE = QColor("#d62728")
CHART_PAPER = QColor("white")


def text_colour(hex_colour: str) -> str:
    """A style sheet that sets only the text colour."""
    return f"color: {hex_colour};"
