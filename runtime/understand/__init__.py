"""Understanding (DESIGN §1, §3.4): the only code that reads a message's text.

Normalise the text, then parse it once into a frame: the dialogue act, the operation, the object or a
reference to the focus, the slots with their spans, and every other span classified. Everything after
the parser reads the frame, never the text.
"""

from runtime.understand.crisis import Crisis, CrisisKind, detect_crisis
from runtime.understand.normalise import normalise

__all__ = ["Crisis", "CrisisKind", "detect_crisis", "normalise"]
