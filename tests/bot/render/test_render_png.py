"""The bot writes its paletted PNGs itself, deflated by ISA-L (``bot.render.encode.png_bytes``): every game's table
decodes to the very picture that was drawn (same indices, same palette), the file is a well-formed PNG read by an
independent parser (stdlib zlib, each chunk's CRC), and Pillow's slower zlib writer is never used for a table."""

from __future__ import annotations

import io
import random
import struct
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render import encode, ofc, oicho
from bot.render import hachi_hachi as hh
from bot.render import luk_fu as lf
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.core.rng import Shuffler
from tests.bot.render.samples import (
    HACHI_NAMES,
    LUKFU_NAMES,
    betting_oicho_view,
    busy_luk_fu_view,
    hachi_hachi_sample_views,
    luk_fu_sample_views,
)

Frame = tuple[str, Callable[[], bytes], Callable[[], Image.Image]]
"""A sample table: its name, the bot's render of it (upload bytes) and the frame that render draws (on the palette)."""


def _oicho_frames() -> Iterator[Frame]:
    views = {"betting": busy_oicho_view("betting"), "showdown": busy_oicho_view("round_over")}
    views["first bets"] = betting_oicho_view()
    for name, view in views.items():
        yield (
            f"oicho {name}",
            lambda v=view: oicho.render_oicho_table(v, BUSY_NAMES, "ja", stake=10),
            lambda v=view: oicho.compose_oicho_table(v, BUSY_NAMES, "ja", 10, paletted=True),
        )


def _ofc_frames() -> Iterator[Frame]:
    """A real four-seat game (the bot's own policy from a fixed seed): the first street, mid-hand, the showdown."""
    from games.ofc.engine import OFCEngine
    from games.ofc.policy import choose
    from games.ofc.rules import OFCRules

    rng = random.Random(11)
    engine = OFCEngine(OFCRules(variant="c"), [500] * 4, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}"))
    moves = 0
    while True:
        view = engine.public_view()
        table = ofc.ofc_drawing(view)
        if moves in (0, 6) or table.showdown:
            yield (
                f"ofc after {moves} placements",
                lambda v=view: ofc.render_ofc_table(v, BUSY_NAMES, "ja", stake=10),
                lambda t=table: ofc.compose_ofc_table(t, BUSY_NAMES, "ja", 10, paletted=True),
            )
        if table.showdown:
            return
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
        moves += 1


def _luk_fu_frames() -> Iterator[Frame]:
    for seats in (3, 4):
        views = {**luk_fu_sample_views(seats), "busiest": busy_luk_fu_view(seats)}
        for name, view in views.items():
            yield (
                f"luk fu {seats} seats {name}",
                lambda v=view: lf.render_luk_fu_table(v, LUKFU_NAMES, "ja", 10),
                lambda v=view: lf.compose_luk_fu_table(v, LUKFU_NAMES, "ja", 10, paletted=True),
            )


def _hachi_hachi_frames() -> Iterator[Frame]:
    for seats in (3, 7):
        for name, view in hachi_hachi_sample_views(seats).items():
            yield (
                f"hachi-hachi {seats} seats {name}",
                lambda v=view: hh.render_hachi_hachi_table(v, HACHI_NAMES, "ja", 10),
                lambda v=view: hh.compose_hachi_hachi_table(v, HACHI_NAMES, "ja", 10, paletted=True),
            )


GAMES: dict[str, Callable[[], Iterator[Frame]]] = {
    "oicho": _oicho_frames,
    "ofc": _ofc_frames,
    "luk_fu": _luk_fu_frames,
    "hachi_hachi": _hachi_hachi_frames,
}


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (kind, data), each CRC checked with stdlib zlib."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        pos += 12 + length
    assert pos == len(data)
    return chunks


def _assert_png_of(data: bytes, frame: Image.Image) -> None:
    """``data`` is a well-formed paletted PNG of exactly ``frame``: read by Pillow and, independently, by hand."""
    png = Image.open(io.BytesIO(data))
    png.load()
    assert (png.format, png.mode, png.size) == ("PNG", "P", frame.size)
    assert png.getpalette() == frame.getpalette()
    assert png.tobytes() == frame.tobytes()

    chunks = _chunks(data)
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert chunks[0][1] == struct.pack(">IIBBBBB", frame.width, frame.height, 8, 3, 0, 0, 0)
    assert list(chunks[1][1]) == frame.getpalette()
    inflater = zlib.decompressobj()
    rows = inflater.decompress(chunks[2][1])
    assert inflater.eof
    assert inflater.unused_data == b""
    stride = frame.width + 1
    assert len(rows) == frame.height * stride
    assert rows[::stride] == bytes(frame.height)  # filter type 0 (none) on every row
    assert b"".join(rows[y * stride + 1 : (y + 1) * stride] for y in range(frame.height)) == frame.tobytes()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_sample_table_round_trips_to_the_drawn_pixels(game: str) -> None:
    frames = list(GAMES[game]())
    assert len(frames) >= 3
    for name, render, compose in frames:
        frame = compose()
        assert encode.on_table_palette(frame), name
        _assert_png_of(render(), frame)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_table_png_is_not_written_by_pillows_zlib(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """Pillow's PNG writer deflates with zlib, six to eight times slower than ISA-L on a busy table."""
    saved: list[Any] = []
    pillows = Image.Image.save

    def counting(self: Image.Image, fp: Any, format: str | None = None, **params: Any) -> None:
        saved.append(format)
        pillows(self, fp, format, **params)

    monkeypatch.setattr(Image.Image, "save", counting)
    _, render, compose = next(GAMES[game]())
    data = render()
    assert saved == []
    _assert_png_of(data, compose())


@pytest.mark.parametrize(
    "size",
    [
        (1, 1),
        (7, 3),
        (1023, 64),  # rows of 1024 bytes filling one block of 64 kB exactly
        (1023, 65),  # and one row more
        (1000, 560),
        (70_000, 3),  # a row longer than a block
    ],
)
def test_any_size_round_trips(size: tuple[int, int]) -> None:
    rng = random.Random(size[0] * 7 + size[1])
    img = encode.paletted_frame(size, (22, 84, 52))
    draw = ImageDraw.Draw(img)
    for _ in range(20):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.rectangle((x, y, x + rng.randrange(1, 90), y + rng.randrange(1, 9)), fill=rng.randrange(40))
    _assert_png_of(encode.encode_png(img), img)


def test_an_rgb_frame_is_written_as_its_mapping_on_the_palette() -> None:
    img = Image.new("RGB", (320, 180), (22, 84, 52))
    draw = ImageDraw.Draw(img)
    draw.rectangle((10, 10, 120, 90), fill=(246, 240, 224))
    draw.ellipse((150, 20, 300, 170), fill=(200, 40, 40), outline=(240, 240, 232), width=3)
    _assert_png_of(encode.encode_png(img), encode.quantize(img))
    _assert_png_of(encode.encode_png(img, palette="adaptive"), encode.quantize(img, "adaptive"))


def test_only_a_paletted_image_is_written() -> None:
    with pytest.raises(ValueError, match="mode P"):
        encode.png_bytes(Image.new("RGB", (4, 4)))
