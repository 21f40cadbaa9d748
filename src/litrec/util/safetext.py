"""Text from the records made safe to print: no control character reaches a terminal raw.

A title or a field value can hold terminal escape sequences (`ESC [ 31 m`), a
carriage return that overwrites the line, a backspace, other C0/C1 controls or
Unicode bidi overrides (U+202E) that reorder what a reader sees. Every line
litrec prints passes through `safe_text`, which writes each such character as
`\\uXXXX`: visible to a human, and still the exact character inside a JSON
string. The command layer installs `SafeStream` on standard output and error
(`safe_streams`), so no print needs to remember it.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager

# C0 controls but tab and newline, DEL, C1 controls, the line and paragraph separators, and
# the bidi marks, embeddings, overrides and isolates that reorder what a reader sees.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# A whole terminal sequence (CSI `ESC [ ... final`, OSC `ESC ] ... BEL/ST`, or ESC and one character).
_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]"
                       r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # keeps \t and \n; \x02/\x03 are Markdown's placeholders


def clean(s: object) -> str:
    """A record value as text for a page or a drawing: line ends `\\n`, without the other control
    characters (nor Markdown's placeholders)."""
    return _CONTROL.sub("", str(s).replace("\r\n", "\n").replace("\r", "\n"))


def _escape(found: re.Match) -> str:
    return f"\\u{ord(found.group()):04x}"


def safe_text(text: str) -> str:
    """`text` with every control or bidi formatting character written as `\\uXXXX`."""
    return UNSAFE.sub(_escape, text)


def strip_unsafe(text: str) -> str:
    """`text` without terminal sequences or control characters (those that separate, a space)."""
    return UNSAFE.sub(lambda found: " " if found.group().isspace() else "", _SEQUENCE.sub("", text))


class SafeStream:
    """A text stream that passes everything written through `safe_text` to the stream it wraps.

    `inner` is the stream itself, for writers that make their own escape sequences
    (rich's colours) and sanitise their text themselves. Characters the stream's
    encoding cannot hold are written as backslash escapes instead of failing.
    """

    def __init__(self, inner):
        self.inner = inner

    def write(self, text: str) -> int:
        """Write `text` made safe; return its length as given."""
        safe = safe_text(text)
        try:
            self.inner.write(safe)
        except UnicodeEncodeError:
            enc = getattr(self.inner, "encoding", None) or "ascii"
            self.inner.write(safe.encode(enc, "backslashreplace").decode(enc))
        return len(text)

    def writelines(self, lines) -> None:
        """Write each line made safe."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def raw_stream(stream):
    """The stream a `SafeStream` wraps (or `stream` itself)."""
    return stream.inner if isinstance(stream, SafeStream) else stream


@contextmanager
def safe_streams():
    """Standard output and error wrapped in `SafeStream` for the duration."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(raw_stream(sys.stdout)), SafeStream(raw_stream(sys.stderr))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
