"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "exercise.log", "exercise.log.done", order=46,
        pattern=r"^(我)?(今天|刚|刚才|刚刚|早上|晚上)?(去)?(运动|锻炼|健身|练)(了|完了?)(一下|一会儿?)?[!！。~～]*$"
                r"|^(我)?(今天|刚|刚才|刚刚|早上|晚上|又)?(去)?(游完泳|跑完步|骑完车|打完球|健完身|跳完绳|爬完山|练完|游了泳|跑了步)",
    ),
    Trigger(
        "exercise.delete", "exercise.delete", order=45,
        pattern=r"(删|删掉|删除|去掉|撤销|撤回|取消|不算).{0,10}(运动|锻炼|跑步|健身|游泳|骑车)?.{0,4}(记录|那条|这条|那次|打卡)"
                r"|(运动|锻炼|跑步|健身|游泳|骑车)?(记录|那条|那次).{0,6}(记错了|删了|删掉|不算|撤销)",
        unless=r"提醒",
    ),
    Trigger(
        "exercise.history", "exercise.history", order=50,
        pattern=r"(运动|锻炼|健身|跑步|训练)的?(记录|历史|统计|情况|总结)|(这周|本周|最近|过去.天|上周).{0,6}(运动|锻炼|跑|练)了?(多少|几次|什么|哪些|情况)",
    ),
    Trigger(
        "exercise.plan", "exercise.plan", order=60,
        pattern=r"(运动|健身|锻炼|训练|减脂|增肌)的?(计划|安排|方案|课表)|(制定|安排|做|定|给我|帮我).{0,6}(运动|健身|锻炼|训练)",
        unless=r"(跑|骑|游|走)了|记一下|记录|打卡|哪些|什么运动|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用",
    ),
    Trigger(
        "exercise.log", "exercise.log", order=70,
        pattern=(
            r"(跑了|跑步|骑了|骑车|游了|游泳|走了|快走|散步|跳了|跳绳|打了|练了|爬了|做了|健身了|瑜伽|打球).{0,12}[\d零一二两三四五六七八九十百半俩]+\s*(分钟|小时|公里|千米|km|个钟|米)|"
            r"[\d零一二两三四五六七八九十百半俩]+\s*(分钟|小时|公里|千米|km).{0,6}(跑步|骑车|游泳|快走|散步|跳绳|瑜伽|健身|爬山|篮球|足球|羽毛球)|"
            r"(记录|记一下|打卡).{0,6}(运动|锻炼|跑步|健身)|"
            r"(做了|练了|完成了?).{0,4}[\d零一二两三四五六七八九十百俩]+\s*(个|下|组)\s*(俯卧撑|仰卧起坐|深蹲|引体向上|卷腹)"
        ),
    ),
)
