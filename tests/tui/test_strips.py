"""tui/runtime/strips.py: strips make their memo caches when first used, and behave as before."""

from __future__ import annotations

import gc

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from tui.runtime import strips


@pytest.fixture(autouse=True)
def _installed() -> None:
    assert strips.install()  # this Textual is the one the patch was written for


def test_a_new_strip_has_no_caches_until_one_is_used() -> None:
    strip = Strip([Segment("hello", Style(bold=True))], 5)
    for name in strips.CACHE_SIZES:
        with pytest.raises(AttributeError):
            object.__getattribute__(strip, name)
    first = strip.crop(1, 3)
    assert first.text == "el"
    assert strip.crop(1, 3) is first  # cached: the same strip the second time
    assert isinstance(object.__getattribute__(strip, "_crop_cache"), FIFOCache)
    with pytest.raises(AttributeError):
        object.__getattribute__(strip, "_style_cache")  # only the cache that was used exists


def test_strips_compute_what_they_did_before() -> None:
    bold, red = Style(bold=True), Style(color="red")
    strip = Strip([Segment("abc", bold), Segment("defg", red)])
    assert strip.cell_length == 7
    assert strip.crop_extend(2, 9, None).text == "cdefg  "
    assert strip.apply_style(red).text == "abcdefg"
    assert [s.text for s in strip.divide([2, 5, 7])] == ["ab", "cde", "fg"]
    assert strip.extend_cell_length(9).cell_length == 9
    assert strip.render(Console()).count("abc") == 1
    with pytest.raises(AttributeError):
        strip.no_such_attribute  # noqa: B018 - other names still fail as usual


def test_a_strip_tracks_fewer_objects() -> None:
    """The point of the patch: an unused strip carries no cache objects for the collector."""
    gc.collect()
    before = sum(isinstance(o, FIFOCache) for o in gc.get_objects())
    kept = [Strip([Segment(f"line {i}")]) for i in range(1000)]
    after = sum(isinstance(o, FIFOCache) for o in gc.get_objects())
    assert len(kept) == 1000 and after - before < 10


def test_install_is_idempotent_and_checks_the_textual_it_patches() -> None:
    assert strips.install() and strips.install()
    assert Strip.__init__ is strips._lazy_init


def test_a_strip_never_caches_itself() -> None:
    """Textual's divide at the strip's own length and a crop_extend that changes
    nothing return the strip itself; cached, that made every drawn strip a
    reference cycle that only the garbage collector could free."""
    gc.collect()
    gc.disable()
    try:
        strip = Strip([Segment("abc", Style(bold=True)), Segment("de")])
        assert strip.divide([5]) == [strip]
        assert strip.crop_extend(0, 5, None) is strip
        assert [s.text for s in strip.divide([2, 5])] == ["ab", "cde"]  # other results are still cached
        assert strip.divide([2, 5]) is strip.divide([2, 5])
        del strip
        assert gc.collect() == 0  # nothing was left in a cycle
    finally:
        gc.enable()
