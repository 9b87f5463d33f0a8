"""S-NOTE-1: the notation of rules section 9 -- parse, format, round trip, errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.api import IllegalAction
from engine.sultans import Action, format_action, parse_action
from engine.sultans.errors import NotationError

EXAMPLES = [
    "peek 3",
    "swap 4",
    "swap spare",
    "hide",
    "hide swap 2",
    "hide swap spare",
    "execute 5",
    "detain 2",
    "assassinate 6",
    "revolt",
    "capture 4",
    "dance",
    "manipulate loyalists 3",
    "foresee 1 4 6",
    "foresee",
    "predict rebels",
    "block",
    "join",
    "refuse",
    "claim",
    "pass",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_s_note_1_every_example_round_trips(text: str) -> None:
    """S-NOTE-1: every example line of section 9 parses and formats back to itself."""
    a = parse_action(text)
    assert format_action(a) == text
    assert str(a) == text
    assert parse_action(format_action(a)) == a
    assert Action.model_validate_json(a.model_dump_json()) == a


@pytest.mark.parametrize(
    ("messy", "canonical"),
    [
        ("  PEEK   3 ", "peek 3"),
        ("Hide Swap SPARE", "hide swap spare"),
        ("manipulate   REBELS\t12", "manipulate rebels 12"),
        ("foresee 6 1 4", "foresee 1 4 6"),
        ("Foresee 9", "foresee 9"),
        ("CLAIM", "claim"),
        ("predict Loyalists", "predict loyalists"),
    ],
)
def test_s_note_1_parse_accepts_any_case_and_spacing(messy: str, canonical: str) -> None:
    """S-NOTE-1: parse accepts any case and extra spaces; format writes the canonical form."""
    assert format_action(parse_action(messy)) == canonical


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fly 3", "unknown action"),
        ("peek", "exactly one seat"),
        ("peek 1 2", "exactly one seat"),
        ("peek spare", "not a seat number"),
        ("peek -1", "not a seat number"),
        ("peek x", "not a seat number"),
        ("swap", "one seat number or 'spare'"),
        ("hide 3", "hide swap"),
        ("hide swap", "hide swap"),
        ("hide spare", "hide swap"),
        ("manipulate 3", "manipulate"),
        ("manipulate neutral 3", "not a side"),
        ("predict", "predict"),
        ("predict both", "not a side"),
        ("foresee 1 1", "twice"),
        ("foresee 1 2 3 4", "at most three"),
        ("block 3", "takes no arguments"),
        ("pass now", "takes no arguments"),
        ("peek ３", "not a seat number"),
    ],
)
def test_s_note_1_malformed_input_is_a_typed_error(bad: str, fragment: str) -> None:
    """S-NOTE-1: malformed notation raises NotationError (an IllegalAction and a
    ValueError) whose message names the input and what is wrong."""
    with pytest.raises(NotationError) as ei:
        parse_action(bad)
    assert isinstance(ei.value, IllegalAction) and isinstance(ei.value, ValueError)
    assert ei.value.code == "parse"
    assert fragment in str(ei.value)
    if bad.strip():
        assert repr(bad) in str(ei.value)


def test_s_note_1_foresee_formats_ascending_and_rejects_bad_models() -> None:
    """S-NOTE-1: ``foresee`` writes its seats ascending; an Action cannot hold a wrong shape."""
    assert format_action(parse_action("foresee 4 2")) == "foresee 2 4"
    with pytest.raises(ValueError):
        Action(kind="foresee", seats=(4, 2))
    with pytest.raises(ValueError):
        Action(kind="peek")
    with pytest.raises(ValueError):
        Action(kind="swap", target=3, spare=True)
    with pytest.raises(ValueError):
        Action(kind="predict", side="rebels", target=1)


_seat = st.integers(min_value=0, max_value=40)
_side = st.sampled_from(["loyalists", "rebels"])
_actions = st.one_of(
    st.builds(lambda k, t: Action(kind=k, target=t), st.sampled_from(["peek", "execute", "detain", "assassinate", "capture"]), _seat),
    st.builds(lambda t: Action(kind="swap", target=t), _seat),
    st.just(Action(kind="swap", spare=True)),
    st.just(Action(kind="hide")),
    st.just(Action(kind="hide", spare=True)),
    st.builds(lambda t: Action(kind="hide", target=t), _seat),
    st.builds(lambda s, t: Action(kind="manipulate", side=s, target=t), _side, _seat),
    st.builds(lambda s: Action(kind="predict", side=s), _side),
    st.builds(lambda ss: Action(kind="foresee", seats=tuple(sorted(ss))), st.sets(_seat, max_size=3)),
    st.sampled_from([Action(kind=k) for k in ("revolt", "dance", "block", "join", "refuse", "claim", "pass")]),
)


@given(_actions)
def test_s_note_1_parse_format_round_trip_property(a: Action) -> None:
    """S-NOTE-1: parse(format(a)) == a for every action."""
    assert parse_action(format_action(a)) == a
    assert parse_action(format_action(a).upper().replace(" ", "   ")) == a


@given(st.text(max_size=30))
def test_s_note_1_random_text_parses_or_raises_notation_error(text: str) -> None:
    """S-NOTE-1: any string either parses to an action whose canonical form parses
    back to it, or raises NotationError -- never anything else."""
    try:
        a = parse_action(text)
    except NotationError:
        return
    assert parse_action(format_action(a)) == a
