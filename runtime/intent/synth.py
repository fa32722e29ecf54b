"""Template generator for the project's own Chinese examples (intents the public data lacks).

Run ``python -m runtime.intent.synth`` to rewrite ``data/own_examples.jsonl`` (deterministic).
Each intent has a block of templates in ``_templates.py`` (timers, small talk, colloquial and
Cantonese phrasings and out-of-scope look-alikes gathered by topic in ``_templates_talk.py``, keyed ``label:group``), one per line, with ``{slot}`` fillers
drawn from word lists (numbers, dishes, foods, activities, times), so the model learns the frame
of a request rather than one sentence. Texts are deduplicated after normalisation (digits folded).
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from ._features import normalize
from ._templates import SLOTS, TARGETS, TEMPLATES
from ._templates_talk import MORE_SLOTS, MORE_TARGETS, MORE_TEMPLATES

OWN_EXAMPLES = Path(__file__).with_name("data") / "own_examples.jsonl"


def _fill(rng: random.Random, template: str) -> str:
    """Fill each ``{slot}`` occurrence independently (two ``{food}`` may differ)."""
    parts: list[str] = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(literal)
        if field is not None:
            options = SLOTS[field] if field in SLOTS else MORE_SLOTS[field]
            parts.append(options[rng.randrange(len(options))])
    return "".join(parts)


def generate(seed: int = 20261201) -> list[tuple[str, str]]:
    """Unique ``(text, label)`` pairs: up to the target per label, fewer when the templates run dry."""
    rng = random.Random(seed)
    rows: list[tuple[str, str]] = []
    groups = {**{label: (TEMPLATES[label], target) for label, target in TARGETS.items()},
              **{key: (MORE_TEMPLATES[key], target) for key, target in MORE_TARGETS.items()}}
    for key, (templates, target) in groups.items():
        label = key.split(":")[0]
        seen: set[str] = set()
        for _ in range(target * 20):
            if len(seen) >= target:
                break
            text = _fill(rng, templates[rng.randrange(len(templates))])
            norm = normalize(text)
            if norm not in seen:
                seen.add(norm)
                rows.append((text, label))
    return rows


def main() -> None:
    """Rewrite the data file."""
    rows = generate()
    with OWN_EXAMPLES.open("w", encoding="utf-8") as out:
        for text, label in rows:
            out.write(json.dumps({"text": text, "label": label}, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} examples to {OWN_EXAMPLES}")


if __name__ == "__main__":
    main()
