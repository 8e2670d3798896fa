"""A console that never crashes on a legacy code page: what it cannot show is shown plainly.

Windows consoles use cp866 or cp1251, where «—», «…», «█» or «»» may not exist; a bare ASCII console
has no Cyrillic at all. `install()` sets the `forumwar-plain` error handler on stdout and stderr: a
character the encoding lacks becomes a plain look-alike («—» -> «-», «█» -> «#»), Cyrillic a Latin
transliteration (on ASCII only), anything else «?». An ASCII stream is given the `forumwar-ascii`
codec (ASCII with that handler), because click treats a plain ASCII stream as misconfigured and would
write UTF-8 bytes to it.
"""
from __future__ import annotations

import codecs
import contextlib
import sys
from typing import TextIO

HANDLER = "forumwar-plain"
ASCII_CODEC = "forumwar_ascii"

PLAIN = {"—": "-", "–": "-", "−": "-", "«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'",
         "…": "...", "█": "#", "▓": "#", "▒": ":", "░": ".", "·": ".", "•": "*", "×": "x", "→": "->",
         "←": "<-", "↔": "<->", "≤": "<=", "≥": ">=", "≈": "~", "№": "N", "\u00a0": " ", "\u202f": " ",
         "✓": "v", "✗": "x", "°": " "}
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                     ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r",
                      "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "'", "e", "yu", "ya"], strict=True))


def plain(char: str) -> str:
    """A character as plain text: its look-alike, its transliteration, or «?»."""
    if char in PLAIN:
        return PLAIN[char]
    lower = char.lower()
    if lower in _CYRILLIC:
        latin = _CYRILLIC[lower]
        return latin.capitalize() if char != lower else latin
    return "?"


def _handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = "".join(plain(c) for c in exc.object[exc.start:exc.end])
    try:                    # the look-alike itself may not exist in the encoding («№» on ASCII)
        text.encode(exc.encoding)
    except (UnicodeEncodeError, LookupError):
        text = "".join(c if ord(c) < 128 else "?" for c in text)
    return text, exc.end


def _ascii_codec(name: str) -> codecs.CodecInfo | None:
    if name != ASCII_CODEC:
        return None
    base = codecs.lookup("ascii")
    return codecs.CodecInfo(
        name=ASCII_CODEC,
        encode=lambda text, errors="strict": base.encode(text, HANDLER if errors == "strict" else errors),
        decode=base.decode,
        incrementalencoder=base.incrementalencoder, incrementaldecoder=base.incrementaldecoder,
        streamwriter=base.streamwriter, streamreader=base.streamreader)


_installed = False


def install() -> None:
    """Degrade, never raise: set the handler on stdout and stderr (once; harmless on a UTF-8 console)."""
    global _installed
    if not _installed:
        codecs.register_error(HANDLER, _handler)
        codecs.register(_ascii_codec)
        _installed = True
    for stream in (sys.stdout, sys.stderr):
        _degrade(stream)


def _degrade(stream: TextIO | None) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    encoding = getattr(stream, "encoding", None)
    if reconfigure is None or not encoding:
        return
    with contextlib.suppress(LookupError, ValueError, OSError):
        if codecs.lookup(encoding).name == "ascii":
            reconfigure(encoding=ASCII_CODEC, errors=HANDLER)
        elif codecs.lookup(encoding).name not in ("utf-8", "utf-16", "utf-32"):
            reconfigure(errors=HANDLER)
