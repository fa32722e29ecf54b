"""Understanding (DESIGN §1, §3.4): the only code that reads a message's text.

Normalise the text, then parse it once into a frame (:class:`Frame`): the dialogue act, the operation,
the object or a reference to the focus, the slots with their spans, and every other span classified.
Everything after the parser asks the frame, never the text.
"""

from runtime.parsers.timephrase import leaning
from runtime.understand.crisis import Crisis, CrisisKind, detect_crisis
from runtime.understand.frame import Frame, Language, Parser
from runtime.understand.slots import USE_DEFAULT
from runtime.understand.slots import typed as typed_params

__all__ = ["USE_DEFAULT", "Crisis", "CrisisKind", "Frame", "detect_crisis", "Language", "Parser", "leaning", "typed_params"]
