"""Slot word lists and sentence templates for the project's own examples (see ``synth``)."""

from __future__ import annotations


def _words(block: str) -> tuple[str, ...]:
    return tuple(block.split())


def _lines(block: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in block.strip().splitlines() if line.strip())


SLOTS: dict[str, tuple[str, ...]] = {
    "people": _words("2个人 3个人 4个人 5个人 6个人 两个人 三口人 四个人 一家五口 8位客人 十个人"),
    "budget": _words(
        "预算100 预算200块 300元以内 两百块钱左右 预算150元 不超过80块 人均50 500以内 预算一百五"
    ),
    "diet": _words("不吃辣 有人吃素 少油少盐 孩子不吃香菜 不要海鲜 清淡一点 有老人要软一点"),
    "food": _words("鸡蛋 西红柿 土豆 牛肉 猪肉 白菜 胡萝卜 大米 面条 豆腐 青椒 鸡翅 牛奶 洋葱 黄瓜 虾"),
    "qty": _words("3个 两斤 半斤 一袋 5个 一盒 2公斤 一把 十个 一颗 一箱 300克"),
    "act": _words(
        "跑步 游泳 骑车 快走 瑜伽 打羽毛球 跳绳 爬山 打篮球 健身 举铁 椭圆机 散步 踢足球 跳操 划船机"
    ),
    "did": _words("跑了 骑了 走了 游了"),
    "dur": _words("20分钟 半小时 40分钟 一个小时 45分钟 一个半小时 15分钟 90分钟 两个小时 30分钟"),
    "dist": _words("5公里 3公里 10公里 2km 21公里 8公里 1500米 半马"),
    "past": _words("今天 刚才 今天早上 昨天晚上 中午 下班后 刚刚 早上"),
    "goal": _words("减脂 增肌 减肥 保持健康 提高耐力 塑形 减重五公斤"),
    "n": _words("两 三 四 五 六"),
    "span": _words("这周 上周 这个月 上个月 最近 今年 最近七天 今天"),
    "kg": _words("65公斤 120斤 70kg 130斤 58公斤 九十斤 八十二公斤 一百五十斤 76公斤 102斤"),
    "cm": _words("175 160cm 一米七五 一米六 182厘米 一米五八 168 一米九"),
    "fut": _words("明天 后天 周四 下周一 今晚 周末 下个月1号 每天 每周三 明早 十分钟后 半小时后 周五下午"),
    "clock": _words("9点 8点半 下午3点 晚上9点 早上7点 10:30 中午12点 六点 晚上八点四十"),
    "todo": _words(
        "倒垃圾 开会 吃药 交房租 给妈妈打电话 取快递 喝水 接孩子 还信用卡 交作业 买菜 浇花 遛狗 体检"
    ),
    "day": _words("今天 明天 后天 周末 这周六 下午 今晚 明天早上"),
    "city": _words("北京 上海 广州 深圳 杭州 成都 武汉 西安 南京 重庆"),
    "fest": _words("国庆 春节 中秋 元旦 端午 周末 五一 清明节"),
    "k": _words("1 2 3 4 5"),
    "room": _words("客厅 卧室 厨房 书房 阳台 卫生间 车库 儿童房 餐厅"),
    "dev": _words("灯 空调 电视 风扇 加湿器 窗帘 热水器 音箱 扫地机器人 电暖气 台灯"),
    "deg": _words("18 20 22 24 26 28"),
    "head": ("", "", "请问", "麻烦", "小助手，", "嗯，", "那个，", "你好，"),
    "tail": ("", "", "", "呢", "？", "啊", "吧", "，谢谢"),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
    "dinner.plan": _lines("""
        帮我规划一下晚饭，{people}，{budget}
        今晚吃什么
        晚饭吃啥好，{people}{budget}
        帮我安排一顿晚餐，{people}
        周末请客{people}，{budget}，帮我出个菜单
        家里来客人了，{people}，帮我配几个菜
        今天晚上做什么菜，{diet}
        给我搭配一桌菜，{people}，{budget}，{diet}
        晚餐{budget}，{people}吃，做点什么好
        帮我想想晚上吃什么，{diet}
        {people}吃饭{budget}怎么安排
        明天晚饭帮我规划下，{people}
        {head}帮我做个晚饭计划{tail}
        今晚{people}在家吃，{budget}
        不知道晚上吃什么，帮我想一个菜单
        晚上想在家做饭，{diet}，{people}
        帮我配个晚餐菜单吧，{budget}
        {head}规划晚饭{tail}
        今天晚饭{diet}，帮我安排
        晚饭菜单推荐一下，{people}
        我们{people}，{budget}，今晚做几个菜合适
        帮我列个晚饭菜单和购物清单
        {head}晚上吃啥{tail}
        {head}今天晚饭吃什么好{tail}
        晚饭吃什么，{people}
        不知道今晚吃啥，{diet}
        晚饭安排一下，{budget}
    """),
    "exercise.plan": _lines("""
        帮我制定一个{goal}计划
        给我排一个{act}训练计划
        我想{goal}，帮我安排下周的运动
        {head}下周的健身计划帮我做一下{tail}
        一周运动{n}次怎么安排
        {head}给我安排明天的锻炼{tail}
        帮我规划一下这周的运动，目标{goal}
        我想开始{act}，怎么安排训练
        {head}制定运动计划{tail}
        帮我出一个{n}周的{act}计划
        新手{act}计划
        我要{goal}，每周能练{n}天，帮我排课表
        明天练什么好，帮我安排一下
        给我一个适合上班族的锻炼计划
        帮我做个{goal}的训练安排
        这个月的运动计划怎么定
        下周想{act}，帮我规划时间和强度
    """),
    "exercise.log": _lines("""
        {past}{did}{dist}
        {past}{act}{dur}
        记录一下：{act}{dur}
        我{past}{act}了{dur}
        刚做完{dur}{act}
        帮我记一下{past}{did}{dist}，用了{dur}
        {act}{dur}，记下来
        打卡：{act}{dur}
        {past}去{act}了，{dur}
        记录运动 {act} {dur}
        我{did}{dist}
        {past}{act}{dist}
        今天的运动：{act}{dur}
        帮我记录今天{act}
        {past}练了{dur}
        刚{act}回来，大概{dur}
        运动打卡，{did}{dist}
    """),
    "exercise.history": _lines("""
        我{span}运动了多少
        看看我{span}的{act}记录
        {span}我锻炼了几次
        {span}消耗了多少卡路里
        {head}我的运动记录{tail}
        查一下我{span}的运动
        {span}一共跑了多少公里
        我{span}{act}了几次
        {head}运动历史{tail}
        给我看看{span}的锻炼情况
        {span}运动总时长是多少
        统计一下我{span}的运动
        我{span}有没有坚持锻炼
        {span}的打卡记录
    """),
    "profile.view": _lines("""
        {head}我的资料{tail}
        {head}看看我的个人信息{tail}
        {head}我的目标是什么来着{tail}
        {head}我现在登记的体重是多少{tail}
        {head}查看我的档案{tail}
        {head}我的身高体重记录{tail}
        {head}你记得我多高吗{tail}
        {head}我设置的目标是什么{tail}
        {head}显示我的个人资料{tail}
        {head}查一下我的信息{tail}
        {head}我之前填的体重是多少{tail}
        {head}我的健身目标是啥{tail}
        {head}我的基本信息{tail}
        {head}你那里记的我的身高是多少{tail}
        {head}我录入的资料有哪些{tail}
        {head}我的BMI是多少{tail}
        {head}我现在的目标体重{tail}
    """),
    "profile.update": _lines("""
        我的体重改成{kg}
        我身高{cm}
        我现在体重{kg}了
        把我的目标改成{goal}
        更新一下我的身高体重：{cm} {kg}
        我想{goal}，帮我把目标设成{goal}
        我瘦到{kg}了，更新一下
        体重{kg}
        身高{cm}，体重{kg}
        修改我的资料，体重{kg}
        我的目标换成{goal}
        记一下我现在{kg}
        更新资料：身高{cm}
        我长高了，现在{cm}
        目标：{goal}
        帮我把体重更新为{kg}
        我胖了，现在{kg}
        最近称了一下，{kg}，帮我改下
        我的目标是{goal}
        把目标体重设为{kg}
        资料里的身高改成{cm}
        以后我的目标就是{goal}了
        改一下个人信息，{goal}
        设置我的目标为{goal}
        个人资料更新，{cm}，目标{goal}
        我想把目标从减脂改成{goal}
    """),
    "pantry.update": _lines("""
        家里还有{qty}{food}
        冰箱里有{qty}{food}和{food}
        我买了{qty}{food}
        {food}用完了
        把{food}从库存里删掉
        家里的{food}没了
        添加：{food}{qty}
        库存加上{qty}{food}
        刚买了{food}和{food}
        记一下冰箱里有{food}
        {food}吃完了，更新一下
        家里有{food}{qty}，{food}{qty}
        更新食材：{food}{qty}
        冰箱新放了{qty}{food}
        {food}还剩{qty}
        食材清单里加{food}
        把{food}划掉，已经用光了
    """),
    "reminder.create": _lines("""
        {fut}{clock}提醒我{todo}
        提醒我{fut}{todo}
        {fut}记得叫我{todo}
        帮我设个提醒，{fut}{clock}{todo}
        {fut}{clock}叫我{todo}
        别让我忘了{fut}{todo}
        加个提醒：{fut}{todo}
        {fut}{clock}要{todo}，到时候提醒我
        定个提醒{fut}{clock}
        记得{fut}提醒我{todo}
    """),
    "reminder.list": _lines("""
        {head}我有哪些提醒{tail}
        {head}查看我的提醒{tail}
        {head}{day}有什么提醒{tail}
        {head}列出所有提醒{tail}
        {head}我设置了什么提醒{tail}
        {head}{day}的提醒有哪些{tail}
        {head}看看我的待办{tail}
        {head}提醒列表{tail}
        {head}{day}我要做什么来着{tail}
        {head}我定了几个提醒{tail}
        {head}查一下{day}的日程{tail}
        {head}我的提醒{tail}
        {head}{day}有哪些待办事项{tail}
        {head}把提醒都列出来{tail}
        {head}我之前让你提醒我什么了{tail}
        {head}{day}有安排吗{tail}
        {head}还有哪些提醒没到{tail}
        {head}我的闹钟有哪些{tail}
    """),
    "reminder.cancel": _lines("""
        取消{fut}的提醒
        把{todo}那个提醒删了
        不用提醒我{todo}了
        {head}删除所有提醒{tail}
        取消第{k}个提醒
        {todo}的提醒不要了
        撤销{fut}{todo}的提醒
        删掉{fut}的闹钟
        {head}清空提醒{tail}
        别提醒我{todo}了
        取消提醒：{todo}
        第{k}个提醒删掉
        {fut}的提醒取消掉
        把{fut}{todo}的提醒取消
    """),
    "datetime.query": _lines("""
        {head}现在几点了{tail}
        {head}今天几号{tail}
        {head}今天星期几{tail}
        {head}今天农历初几{tail}
        {head}离{fest}还有几天{tail}
        {head}明天是周几{tail}
        {head}现在几点几分{tail}
        {head}今天是几月几号{tail}
        {head}现在什么时间{tail}
        {head}{fest}是哪天{tail}
        {head}几点啦{tail}
        {head}今天日期{tail}
        {head}今天是礼拜几{tail}
        {head}后天几号{tail}
        {head}现在是上午还是下午{tail}
        {head}距离{fest}还有多久{tail}
        {head}这周是第几周{tail}
        {head}下周一是几号{tail}
    """),
    "weather.query": _lines("""
        {day}{city}天气怎么样
        {city}{day}会下雨吗
        {day}要带伞吗
        {city}{day}多少度
        {head}{day}天气如何{tail}
        {day}冷不冷
        {city}{day}有雾霾吗
        查一下{city}的天气
        {day}刮风吗
        {day}穿什么合适，{city}
    """),
    # Out of scope: bookings, shopping, media, medical, messaging, device control, shopping lists.
    "unknown": _lines("""
        帮我订一张去{city}的机票
        帮我订个{city}的酒店
        {head}帮我叫个外卖{tail}
        帮我打个车去机场
        给我买两张电影票
        {head}帮我挂个号{tail}
        {head}帮我订个餐厅{tail}
        给我放首歌
        帮我充话费
        查一下去{city}的火车票
        {city}到{city}的高铁几点
        帮我发个微信给张三
        帮我买个手机
        我头疼吃什么药
        感冒了怎么办
        股票今天涨了吗
        讲个笑话
        帮我翻译一下这句话
        今天有什么新闻
        帮我订一下明天的会议室
        帮我预约理发
        帮我下单一箱{food}
        帮我查快递到哪了
        帮我转账给妈妈
        播放下一集
        打电话给老王
        打开{room}的{dev}
        把{room}{dev}关掉
        {room}的{dev}关一下
        把{room}温度调到{deg}度
        {room}空调设成{deg}度
        把{food}加到购物清单
        购物清单里加上{food}
        {dev}亮度调到{deg}%
        关闭所有{dev}
        {room}太暗了，开灯
        把{dev}的音量调大
        暂停播放
        锁上{room}的门
        把{room}窗帘打开一半
        {dev}开到{n}档
        帮我把{food}从购物清单删掉
        {room}的{dev}是开着的吗
        把{room}的灯调暗一点
        我的购物清单上有什么
    """),
}

TARGETS: dict[str, int] = {
    "dinner.plan": 260,
    "exercise.plan": 200,
    "exercise.log": 300,
    "exercise.history": 200,
    "profile.view": 180,
    "profile.update": 250,
    "pantry.update": 300,
    "reminder.create": 250,
    "reminder.list": 200,
    "reminder.cancel": 200,
    "datetime.query": 150,
    "weather.query": 120,
    "unknown": 300,
}
