"""The engine's structure: one function per rule, layered imports, no hidden switches,
documented event codes, reprs that read like code."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import captain.rules
from captain.rules import (
    AttackCard,
    AttackKind,
    BellRule,
    Board,
    Cell,
    Collection,
    Colour,
    Dice,
    Event,
    Mode,
    Position,
    RuleSet,
    Seating,
    SpeedOrder,
    Treasure,
    clauses,
    notation,
)
from captain.rules.events import documented_codes
from captain.rules.game import (
    Claim,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    apply,
    legal_actions,
    new_game,
)
from captain.rules.game import transitions as apply_module
from conformance import CLAUSE_IDS

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = Path(captain.rules.__file__).parent
MODULES = sorted(m.name for m in pkgutil.walk_packages([str(RULES_DIR)], prefix="captain.rules."))
R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN


def clause_ids() -> list[str]:
    """Every clause id of the site's rules reference (``tutorials/wording/clauses.py``)."""
    return list(CLAUSE_IDS)


# --- one function per clause ---------------------------------------------------------------------
def test_the_rules_reference_defines_the_clauses():
    ids = clause_ids()
    assert len(ids) == len(set(ids)) and len(ids) > 40
    assert {"SETUP-1", "DICE-7", "STRAT-4", "SET-4", "BAT-5", "TRE-5", "END-3", "VAR-4", "INT-8"} <= set(ids)


@pytest.mark.parametrize("clause", clause_ids())
def test_every_clause_is_implemented_by_exactly_one_function(clause):
    for name in MODULES:  # importing runs every @implements
        importlib.import_module(name)
    functions = clauses.implementations(clause)
    names = [f"{f.__module__}.{f.__qualname__}" for f in functions]
    assert len(functions) == 1, f"{clause}: {names or 'no function'}"
    function = functions[0]
    assert function.__module__.startswith("captain.rules.")
    assert clause in (function.__doc__ or "") or clause in function.__implements__


def test_no_function_claims_a_clause_the_rules_reference_does_not_have():
    for name in MODULES:
        importlib.import_module(name)
    assert set(clauses.registry()) <= set(clause_ids())


# --- layers, cycles, Django ------------------------------------------------------------------------
def test_import_linter_contracts_are_kept():
    """pyproject.toml's contracts: no Django or site import in the engine, its layers,
    no cycles between sibling modules."""
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                               "sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "broken" not in result.stdout.replace("0 broken", "")


# --- caches and switches -----------------------------------------------------------------------------
def _engine_sources() -> list[Path]:
    return sorted(RULES_DIR.rglob("*.py"))


def test_no_cache_keys_on_object_identity():
    """``id()`` is reused once an object is freed: no engine code may call it."""
    for path in _engine_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "id", f"{path.name}:{node.lineno} calls id()"


#: Module-level tables that are not memos of a computation.
NOT_MEMOS = {"caches.py": "the memo tables themselves", "clauses.py": "the clause registry"}


def test_no_module_level_memo_outside_caches():
    """Module-level dicts that grow at run time belong in captain.rules.caches."""
    for path in _engine_sources():
        if path.name in NOT_MEMOS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                value = node.value
                if isinstance(value, ast.Dict) and not value.keys:
                    raise AssertionError(f"{path.name}:{node.lineno}: an empty module-level dict")
            if isinstance(node, ast.FunctionDef):
                for deco in node.decorator_list:
                    target = deco.func if isinstance(deco, ast.Call) else deco
                    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                    assert name not in ("lru_cache", "cache"), f"{path.name}:{node.lineno}: {name}"


def test_apply_always_checks_even_right_after_listing(monkeypatch):
    state = new_game((R, B, G), seed=3, start_player=R)
    calls = []
    real = apply_module.check
    monkeypatch.setattr(apply_module, "check", lambda s, a: calls.append(a) or real(s, a))
    listed = legal_actions(state)
    apply(state, listed[0])
    assert calls == [listed[0]]


def test_only_actions_taken_from_the_listing_skip_the_check(monkeypatch):
    state = new_game((R, B, G), seed=3, start_player=R)
    calls = []
    real = apply_module.check
    monkeypatch.setattr(apply_module, "check", lambda s, a: calls.append(a) or real(s, a))
    listed = legal_actions(state)
    listed.apply(listed[0])
    assert calls == []
    listed.apply(RingStartBell(R))  # equal, but not the listed object: checked
    assert calls == [RingStartBell(R)]
    with pytest.raises(captain.rules.IllegalAction):
        listed.apply(RingStartBell(B))


def test_a_listing_belongs_to_its_state():
    state = new_game((R, B, G), seed=3, start_player=R)
    after = apply(state, RingStartBell(R))
    listed = legal_actions(state)
    with pytest.raises(captain.rules.IllegalAction):  # the listing's state is before the bell
        legal_actions(after).apply(listed[0])


# --- event codes ---------------------------------------------------------------------------------
def _codes_in_source() -> set[str]:
    """String constants given as the code of ``Event(...)``/``Event.of(...)`` anywhere in
    the engine, including both branches of a conditional expression."""
    found: set[str] = set()

    def constants(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return constants(node.body) + constants(node.orelse)
        raise AssertionError(f"an event code that is not a literal: {ast.dump(node)}")

    for path in _engine_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "Event") or (
                    isinstance(func, ast.Attribute) and func.attr == "of"
                    and isinstance(func.value, ast.Name) and func.value.id == "Event"):
                found.update(constants(node.args[0]))
    return found


def test_documented_event_codes_are_exactly_the_emitted_ones():
    assert len(documented_codes()) == len(set(documented_codes()))
    assert set(documented_codes()) == _codes_in_source()


def test_codes_seen_in_play_are_documented():
    from captain.rules.sim.players import POLICIES, play_game

    seen: set[str] = set()
    for seed, mode in ((1, Mode.ACTION), (2, Mode.STRATEGY)):
        players = (R, B, G)

        def on_step(before, action, after):
            seen.update(e.code for e in after.log)

        final = play_game(players, {c: POLICIES["greedy"] for c in players}, seed=seed,
                          rules=RuleSet(mode=mode), on_step=on_step)
        seen.update(e.code for e in final.log)
    assert seen <= set(documented_codes())
    assert {"dice.start", "dice.claim", "setting.place", "battle.act", "round.standings"} <= seen


# --- reprs read like the call that makes the value -------------------------------------------------
NAMESPACE = {"AttackCard": AttackCard, "AttackKind": AttackKind, "Board": Board, "Colour": Colour,
             "Dice": Dice, "Position": Position, "RuleSet": RuleSet, "Seating": Seating,
             "SpeedOrder": SpeedOrder, "Mode": Mode, "BellRule": BellRule, "Collection": Collection,
             "Cell": Cell, "Treasure": Treasure, "notation": notation, "Event": Event,
             "Claim": Claim, "RingBell": RingBell, "Roll": Roll, "PlaceAttackCard": PlaceAttackCard,
             "RingStartBell": RingStartBell}

VALUES = [
    notation.parse("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2"),
    notation.parse("rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234"),
    Board.parse(["11:r5 12 13", "14 15:B --"]),
    AttackCard(B, AttackKind.KRAKENS_WRATH), Dice(G), Treasure(3, 5), Position(1, 2),
    RuleSet(), RuleSet(speed_order=SpeedOrder.REVERSED, mode=Mode.STRATEGY, place_after_reroll=True),
    Seating((R, B, G), B), Claim(R, Position(0, 1)), Roll(B, (1, 1, 6)),
    PlaceAttackCard(G, Position(2, 2), AttackKind.CANNON), Colour.WHITE, AttackKind.SCOUT_SHIP,
    Event("battle.act", "BAT-4", {"removed": [[0, 1]], "card": "b1"}),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_repr_reads_like_the_call_that_makes_it(value):
    text = repr(value)
    assert eval(text, NAMESPACE) == value  # noqa: S307 - our own reprs
    assert len(text) < 200, text


def test_a_situation_repr_is_its_notation():
    situation = VALUES[0]
    assert repr(situation) == f"notation.parse({situation.to_notation()!r})"


def test_notation_has_no_function_named_like_a_builtin():
    import builtins

    public = {name for name in dir(notation) if not name.startswith("_")}
    assert not public & set(dir(builtins)), public & set(dir(builtins))
