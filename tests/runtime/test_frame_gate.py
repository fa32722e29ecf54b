"""The frame gate (DESIGN §1, §3.4 "one frame per message"): the parser is the only code that reads a
message's text. The resolver, the slot filling and the engine reach the message only through the frame's
typed readings; a source scan fails the build if any of them reads the text, cuts it with a regular
expression, or calls a text reader of the parser directly."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AFTER_THE_PARSER = sorted([*(ROOT / "runtime" / "resolve").glob("*.py"), *(ROOT / "runtime" / "apply").glob("*.py"),
                           ROOT / "runtime" / "engine.py"])

# what these modules may import of the parser: its public face (the frame and the typed values it gives)
ALLOWED_FROM = {
    "runtime.understand": {"Frame", "Language", "Parser", "USE_DEFAULT", "typed_params", "leaning", "Crisis",
                           "CrisisKind"},
    "runtime.understand.frame": {"Frame", "Language", "Parser"},
    "runtime.understand.pick": {"Picked"},  # the type of a pick the frame made
    "runtime.understand.slots": {"USE_DEFAULT"},
    "runtime.parsers.timephrase": {"TimeExpr"},  # a time value, typed
    "runtime.parsers.correction": {"corrected_time"},  # typed: a time value read against another
}
# the words themselves, where they may go: to the parser, to a store, or to a model (which reads them)
TEXT_ALLOWED = {
    ("engine.py", "inbound.text"),  # handed to the parser, once per message
    ("llm_router.py", "view.text"),  # handed to the routing model, the parser of last resort
    ("fallback.py", "view.text"),  # handed to the fallback agent's model
    ("_handlers.py", "clar.text"),  # the words of a message a numbered question was about, parsed again
}
NEVER = {"text", "original", "_text"}


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name == "re" or a.name.startswith("runtime.parsers")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "re" or (node.module.startswith(("runtime.parsers", "runtime.understand"))
                                       and not {a.name for a in node.names} <= ALLOWED_FROM.get(node.module, set())):
                found.append(f"imports {node.module}: {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Attribute) and node.attr in NEVER:
            said = ast.unparse(node)
            if (path.name, said) not in TEXT_ALLOWED and not said.endswith(("summary.text", "question.text")):
                found.append(f"reads {said} (line {node.lineno})")
    return found


@pytest.mark.parametrize("path", AFTER_THE_PARSER, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_after_the_parser_reads_the_message(path: Path) -> None:
    assert _violations(path) == []


def test_the_gate_would_catch_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import re\nfrom runtime.understand.lexicon import operations\n"
                   "def f(turn):\n    return re.search('x', turn.frame.text) or operations(turn.view.text)\n",
                   encoding="utf-8")
    found = _violations(bad)
    assert "imports re" in found[0] and "runtime.understand.lexicon" in found[1]
    assert any("turn.frame.text" in f for f in found) and any("turn.view.text" in f for f in found)


def test_the_turn_carries_the_frame_not_the_words() -> None:
    """One frozen turn: the stages and the apply step get the frame, never the text (the router view's
    text is the model's), and nothing assigns to a turn once it is built."""
    import dataclasses

    from runtime.resolve import Turn

    fields = {f.name for f in dataclasses.fields(Turn)}
    assert "frame" in fields and "text" not in fields
    assert Turn.__dataclass_params__.frozen  # type: ignore[attr-defined]
