"""Own-example templates for timers and notes: starting a timer or a note is ``reminder.create``,
asking how long is left (or pausing/resuming one) is ``reminder.list``, stopping one is ``reminder.cancel``
(see ``_templates_talk``).
"""

from __future__ import annotations

from ._templates import _lines, _words

SLOTS: dict[str, tuple[str, ...]] = {
    "tmin": _words(
        "5分钟 10分钟 十分钟 三分钟 半小时 一个小时 25分钟 90秒 30秒 两分钟 一刻钟 45分钟 20分钟 1小时 "
        "一个半小时 15分钟 8分钟 四十分钟 1分钟 3分钟"
    ),
    "tname": _words("煮蛋 泡面 面膜 烤箱 蒸鱼 午睡 番茄钟 学习 煲汤 洗衣服 披萨 炖肉 烤红薯 平板支撑 冥想"),
    "timer": _words("计时器 定时器 倒计时 计时 计时器 计时器"),
    "all": _words("所有 全部 全部的 每个 所有的"),
    "stopv": _words("取消 停止 清除 关掉 删除 停掉"),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
    "reminder.create:timer": _lines("""
        设置一个{tmin}的{timer}
        {tmin}{timer}
        {head}定个{tmin}的计时器{tail}
        计时{tmin}
        帮我计时{tmin}
        开始计时，{tmin}
        倒计时{tmin}
        帮我倒计时{tmin}
        来个{tmin}倒计时
        {tname}计时器{tmin}
        给{tname}设个{tmin}的计时器
        启动一个{tmin}的定时器
        开个{tmin}的计时
        计时器设为{tmin}
        帮我掐个表，{tmin}
        开一个{tname}的计时器，{tmin}
        {tname}，计时{tmin}
        新建一个{tmin}的计时器
        {head}帮我定时{tmin}{tail}
        {tmin}后提醒我{tname}好了
        帮我设个{tname}计时器
        开始{tname}计时
        计时器再加{tmin}
        {timer}加{tmin}
        给计时器多加{tmin}
        {tname}的计时器延长{tmin}
        {timer}减少{tmin}
        计时器少{tmin}
        把{tname}的计时器缩短{tmin}
        幫我設定{tmin}計時器
        帮我较个{tmin}嘅计时器
        开个{tmin}嘅计时器啦
        计时{tmin}啦
        {tname}计时器加多{tmin}
        较个计时器，{tmin}
    """),
    "reminder.list:timer": _lines("""
        {timer}还剩多久
        {head}计时器还有多长时间{tail}
        还剩几分钟到时间
        倒计时还剩多少
        {tname}计时器还剩多少时间
        查看计时器
        我的计时器
        计时器怎么样了
        我有几个计时器
        定时器还有多久到
        {tname}还要多久好
        计时器剩多少时间了
        所有计时器的状态
        计时器还在走吗
        暂停{timer}
        把{tname}的计时器暂停一下
        先停一下计时，等会继续
        继续计时
        恢复{timer}
        {tname}计时器继续
        计时器接着走
        计时器仲有几耐
        {tname}仲要几耐
        暂停咗个计时器先
        计时器继续啦
        計時器還剩幾多時間
        恢复计时
        继续倒计时
        计时器继续走
        重新开始{tname}计时器
        让计时器接着走
    """),
    "reminder.cancel:timer": _lines("""
        停止{timer}
        取消{timer}
        关掉倒计时
        计时器不要了
        把{tname}的计时器关了
        取消所有计时器
        停掉所有计时
        {head}把计时器关掉{tail}
        不用计时了
        {tname}计时取消
        删掉{tname}那个计时器
        停咗个计时器
        取消晒啲计时器
        唔使计时喇
        取消計時器
        {stopv}{all}计时器
        把{all}计时器都{stopv}
        {all}倒计时都不要了
        {stopv}{all}定时器
    """),
    "reminder.create:note": _lines("""
        帮我记一下{fut}要{todo}
        {fut}{todo}，别忘了提醒我
        备忘：{fut}{todo}
        记一下，{fut}{todo}
        {fut}{clock}有个会，提前提醒我
        帮我记着{fut}{todo}
        {fut}{clock}{todo}，帮我记上
        记个事，{fut}{todo}
        {fut}要{todo}，你到时候喊我一声
        明早叫我起床
        {clock}叫醒我
        {fut}{clock}的闹钟
        帮我定个{clock}的闹钟
    """),
}
