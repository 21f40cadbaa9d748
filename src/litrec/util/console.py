"""The terminal: the rich Console every command prints through, safe against the text it shows
(rich is imported on first use)."""

from __future__ import annotations

import functools
import os
import sys

from litrec.util.safetext import raw_stream, safe_text


def console(stderr: bool = False):
    """The rich Console every command prints through; `NO_COLOR` turns every style off.

    It writes its own colours to the real stream and passes all the text it writes (every
    string it renders, and every segment, a `Text` built from record text or a table cell)
    through `safe_text`; text from the records still needs `rich.markup.escape` where it
    sits inside markup.
    """
    plain = bool(os.environ.get("NO_COLOR"))
    stream = raw_stream(sys.stderr if stderr else sys.stdout)
    return _safe_console()(file=stream, color_system=None if plain else "auto", no_color=plain,
                           highlight=not plain, emoji=False)


@functools.cache
def _safe_console():
    """rich's Console, rendering every string through `safe_text` (rich is imported on first use)."""
    from rich.console import Console
    from rich.segment import Segment

    class SafeConsole(Console):
        """A Console whose text loses its control characters before it is written: strings as
        they are rendered, and every segment of text whatever made it (a `Text` built from
        record text, a table cell), so only rich's own styles and controls reach the terminal."""

        def render_str(self, text: str, **kwargs):
            """The Text of `text` made safe."""
            return super().render_str(safe_text(text), **kwargs)

        def render(self, renderable, options=None):
            """The segments of `renderable`, each one's text through `safe_text` (rich's
            control segments, its cursor moves, as they are)."""
            for seg in super().render(renderable, options):
                yield seg if seg.control else Segment(safe_text(seg.text), seg.style, seg.control)

    return SafeConsole
