"""What the bot says in a crisis: the one place for these words and numbers (docs/safety.md cites each).

Short, calm, what to do now first. The numbers: 120 (medical emergencies), 110 (the police), 12356
(the national psychological assistance hotline of the National Health Commission), 010-82951332
(the Beijing Psychological Crisis Research and Intervention Center's 24-hour line), 12338 (the
All-China Women's Federation's women's rights hotline), 12355 (the Communist Youth League's youth
service line). First steps are only the ones every first-aid guide agrees on: no diagnosis, no medicine.
"""

from __future__ import annotations

__all__ = ["HOTLINES", "again", "reply"]

MENTAL_HEALTH = "心理援助热线 12356（全国统一号码）"
CRISIS_24H = "北京心理危机研究与干预中心的24小时热线 010-82951332"
HOTLINES = f"{MENTAL_HEALTH}，或{CRISIS_24H}"
WOMEN_YOUTH = "也可以打全国妇联的 12338 妇女维权热线；未成年人可以打共青团的 12355 青少年服务台（接听时间各地不同）。"
HERE = "我一直在这儿，有什么需要随时跟我说。"

_CALL_120 = "请马上拨打120急救电话，说清楚地址和现在的情况。"
_WAIT_120 = "开着门，有人的话让他到楼下或路口接救护车；救护车来之前一直有人陪着，按120调度员说的做。"
_FIRST_STEPS = {
    "chest": "先停下来，坐着或半躺着休息，不要走动，也不要自己开车去医院。",
    "breathing": "让人坐起来，解开领口和腰带，保持空气流通；如果是被东西卡住或噎住，按调度员的指导做。",
    "stroke": "记下症状是几点开始的（医生很需要这个时间），让人躺下或坐着别动，不要喂水、喂饭、喂药。",
    "unconscious": "如果叫不醒但还有呼吸，让人侧躺、保持呼吸通畅，不要喂水或喂药；如果没有呼吸，按调度员的指导做心肺复苏。",
    "bleeding": "用干净的毛巾或布用力按住出血的地方，一直按着不要松手。",
    "convulsion": "让人侧躺，移开身边的硬东西，不要往嘴里塞任何东西，也不要用力按住；记下抽了多长时间。",
    "poisoning": "把吃下或喝下的东西的瓶子、包装带上给医生看；人如果叫不醒，不要喂水喂东西。",
    "gas": "先打开门窗通风，把人带到空气新鲜的地方；不要开关电器，不要点火。",
    "trauma": "如果周围还有危险（车、电、水），先保证自己安全；没有危险就不要随意搬动伤者。",
}

_SELF_HARM = {
    "attempt": ("请马上拨打120，告诉他们吃了（或做了）什么、什么时候，把药瓶或包装留着；打开门，让身边的人过来陪着你。",
                f"你不用一个人扛着。等安全了，也可以打{HOTLINES}。"),
    "injury": ("如果伤口深或者血止不住，请马上拨打120，先用干净的布用力按住伤口。",
               f"你不用一个人扛着，可以打{HOTLINES}，那边有人愿意听你说。",
               "也可以现在就联系一个你信任的人，让他来陪陪你。"),
    "someone": ("谢谢你告诉我，这件事很要紧。如果他现在就有危险（已经伤到自己、吃了药，或者在高处），请马上拨打120或110。",
                "尽量陪着他，别让他一个人待着，把危险的东西拿开。",
                f"也可以陪他一起打{HOTLINES}。你自己也辛苦了。"),
    "ideation": ("听到你这么说，我很担心你。你现在的感受很重要，你不用一个人扛着。",
                 f"现在就可以打{HOTLINES}，那边有人愿意听你说。",
                 "如果你已经伤到自己，或者觉得马上就要控制不住，请立刻拨打120，或者让身边的人陪着你。"
                 "也可以现在就联系一个你信任的人，告诉他你现在的状态。"),
}

_VIOLENCE = {
    "threat": ("有人威胁要伤害你，这很严重。请马上拨打110报警，先去人多、安全的地方，把威胁的话（短信、聊天记录）保存下来。",
               WOMEN_YOUTH, "这不是你的错。"),
    "abuse": ("你现在安全吗？如果正在挨打或者有危险，请马上拨打110报警，先躲到能锁门的房间或者邻居家。",
              "受了伤请打120或者去医院，让医生记下伤情，以后用得上。",
              WOMEN_YOUTH, "这不是你的错。"),
}

# one line for another kind told in the same message
_ALSO = {
    "medical": "身体有危险的话，请马上拨打120。",
    "violence": "如果有人在伤害你，请马上拨打110。",
    "self_harm": f"如果你有伤害自己的念头，可以打{HOTLINES}。",
}


def reply(kind: str, sub: str, also: tuple[str, ...] = ()) -> str:
    """The crisis reply for ``kind`` (``self_harm`` · ``medical`` · ``violence``) and ``sub``, lines
    joined by newlines: what to do now first, then who can help, then that the bot is here."""
    if kind == "medical":
        lines = [_CALL_120, *([_FIRST_STEPS[sub]] if sub in _FIRST_STEPS else []), _WAIT_120]
    elif kind == "violence":
        lines = list(_VIOLENCE.get(sub, _VIOLENCE["abuse"]))
    else:
        lines = list(_SELF_HARM.get(sub, _SELF_HARM["ideation"]))
    lines += [_ALSO[k] for k in also if k in _ALSO and k != kind]
    return "\n".join([*lines, HERE])


# what the bot says to a message right after a crisis reply that asks for nothing else: it stays with the
# person and says the one thing to do now again, in other words
_AGAIN = {
    "medical": ("这种情况拖不得，哪怕本人觉得没事也一样：请先拨打120，让医生来判断；"
                "等车的时候一直有人陪着。"),
    "violence": ("你的安全最要紧。如果他还在外面、门随时可能被打开，请现在就拨打110，"
                 "告诉他们地址和“正在被家暴”；能锁门就锁好，手机别离身。"),
    "self_harm": (f"我知道这些话可能帮不上多少，但我是认真的：你不用一个人扛着。"
                  f"现在就可以打{MENTAL_HEALTH}，或{CRISIS_24H}，那边有人愿意听你说。"
                  "如果你觉得马上就要控制不住，请立刻拨打120，或者让身边的人陪着你。"),
}


def again(kind: str) -> str:
    """What to say to a message right after the crisis reply of ``kind`` that asks for nothing else."""
    return "\n".join([_AGAIN.get(kind, _AGAIN["self_harm"]), HERE])
