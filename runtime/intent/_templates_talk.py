"""More own-example templates: timers, small talk, colloquial chat that carries task words, everyday
weather/date questions, Cantonese phrasings, and out-of-scope look-alikes (see ``_synth``).

Keys are ``label:group``; the label is the part before the colon. Timers are reminders: starting one
is ``reminder.create`` (so is lengthening or shortening one: the closest thing the bot can do is a
new reminder), asking how long is left or pausing/resuming one is ``reminder.list`` (show what is
set), stopping one is ``reminder.cancel``. Chat about food or exercise that asks the bot for nothing
("周末想跟朋友聚聚吃点啥好", "最近动得咋样") is ``chitchat``; a vague request with no object
("帮我把那个事儿取消了吧") is ``unknown``, so the bot asks instead of guessing a task.
"""

from __future__ import annotations

from ._templates import _lines, _words

MORE_SLOTS: dict[str, tuple[str, ...]] = {
    "tmin": _words(
        "5分钟 10分钟 十分钟 三分钟 半小时 一个小时 25分钟 90秒 30秒 两分钟 一刻钟 45分钟 20分钟 1小时 "
        "一个半小时 15分钟 8分钟 四十分钟 1分钟 3分钟"
    ),
    "tname": _words("煮蛋 泡面 面膜 烤箱 蒸鱼 午睡 番茄钟 学习 煲汤 洗衣服 披萨 炖肉 烤红薯 平板支撑 冥想"),
    "timer": _words("计时器 定时器 倒计时 计时 计时器 计时器"),
    "dish": _words("火锅 烧烤 小龙虾 饺子 麻辣烫 炸鸡 烤鸭 寿司 螺蛳粉 红烧肉 奶茶 蛋糕"),
    "who": _words("朋友 同事 家里人 老同学 闺蜜 室友 爸妈 对象"),
    "thing": _words("那个事儿 那个 这个 那件事 刚才那个 之前那个 那玩意儿 上次那个"),
    "meal": _words("晚饭 午饭 早饭 今晚 中午 刚才 昨晚"),
    "full": _words("好撑 太饱了 吃多了 不太好吃 挺香的 有点咸 一般般"),
    "feature": _words("提醒 提醒功能 菜单推荐 运动计划 天气预报 记录功能 菜谱"),
    "praise": _words("还挺准的 真好用 挺方便 不太准啊 有点烦 太棒了 还不错 一般般吧"),
    "feel": _words("好累 好爽 腿好酸 出了一身汗 累死了 感觉不错 好饿"),
    "dish2": _words("红烧肉 可乐鸡翅 番茄炒蛋 宫保鸡丁 酸菜鱼 麻婆豆腐 糖醋排骨 蛋炒饭 鱼香肉丝 水煮鱼 "
                    "清蒸鲈鱼 地三鲜 回锅肉 土豆丝 蒜蓉西兰花 蛋挞 凉拌黄瓜 羊肉汤"),
    "all": _words("所有 全部 全部的 每个 所有的"),
    "stopv": _words("取消 停止 清除 关掉 删除 停掉"),
    "fest2": _words("植树节 母亲节 父亲节 情人节 七夕 重阳节 腊八 元宵节 冬至 儿童节 教师节 感恩节 圣诞节 除夕 小年"),
    "wcity": _words("纽约 伦敦 东京 旧金山 巴黎 悉尼 洛杉矶 新加坡 首尔 柏林 温哥华"),
    "done": _words("游完泳 跑完步 打完球 骑完车 练完瑜伽 健完身 跳完绳 爬完山 散完步 踢完球 游了泳 跑了步 打了球"),
    "yroom": _words("客廳 睡房 廚房 書房 露台 廁所 飯廳"),
    "ydev": _words("燈 冷氣 電視 風扇 抽濕機 窗簾 熱水爐 音響 吸塵機"),
}

MORE_TEMPLATES: dict[str, tuple[str, ...]] = {
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
    "chitchat:small": _lines("""
        谢谢
        谢谢你
        {head}太感谢了{tail}
        谢了啊
        多谢帮忙
        谢谢你的帮助
        感谢感谢
        辛苦啦
        麻烦你了
        你好呀
        早啊
        晚上好呀
        嗨喽
        在不在
        有人吗
        哈喽哈喽
        你好小助手
        你是谁啊
        你叫啥名字
        你是机器人吗
        你是真人吗
        谁开发的你
        你几岁了
        你真棒
        你好厉害
        太聪明了
        干得漂亮
        真不错
        你挺好用的
        你真贴心
        你好笨啊
        你怎么听不懂人话
        答非所问
        太差劲了
        你是不是傻
        怎么又错了
        你真烦
        我不满意
        再见
        拜拜
        回头聊
        我先走了
        下次再聊
        晚安啦
        睡了睡了
        先这样吧
        哈哈哈
        笑死我了
        哈哈好吧
        嘿嘿
        嘻嘻
        太好笑了
        我好累
        今天心情不好
        好无聊啊
        压力好大
        我睡不着
        好开心啊
        我今天被老板骂了
        陪我聊聊天
        你在干嘛
        你吃饭了吗
        多谢晒
        唔该晒
        早晨
        你系边个
        拜拜啦
        哈哈哈哈笑死
    """),
    "chitchat:tasky": _lines("""
        周末想跟{who}聚聚吃点啥好
        最近动得咋样
        你平时吃什么
        你喜欢吃什么
        你喜欢{dish}吗
        你吃过{dish}吗
        {dish}好吃吗
        好想吃{dish}啊
        你会做饭吗
        你运动吗
        你喜欢什么运动
        你觉得跑步好还是游泳好
        最近胖了好多
        最近没怎么锻炼
        跑步好累啊
        吃什么都不香
        你的提醒功能真好用
        昨天提醒得挺准时的
        你推荐的菜挺好吃的
        上次那个菜单不错
        我又忘了喝水哈哈
        今天吃撑了
        减肥好难啊
        健身房人好多
        跟{who}吃{dish}去了，好开心
        {who}说{dish}不好吃
        运动完好爽
        你会提醒自己吗
        你每天几点睡觉
        你记性怎么样
        周末和{who}干点啥好呢
        今晚不想做饭了
        又到周一了好烦
        天气这么好真想出去玩
        下雨天就想睡觉
        {meal}吃得{full}
        你的{feature}{praise}
        {act}完{feel}
        {meal}吃了{dish}，{full}
        我{who}也在用你的{feature}
        {who}做的{dish2}{full}
        你知道{dish2}吗
        你会{act}吗
        说真的你的{feature}{praise}
    """),
    "recipe.query:colloquial": _lines("""
        {dish2}咋做
        {dish2}怎么做好吃
        教我做{dish2}
        {dish2}要放什么调料
        做{dish2}需要哪些材料
        {dish2}要炖多久
        我想学做{dish2}
        {dish2}用什么锅做
        {dish2}的步骤
        {head}{dish2}怎么弄{tail}
        {dish2}第一步干嘛
        {dish2}先放什么
        {dish2}點整
        {dish2}要煮几耐
    """),
    "unknown:vague": _lines("""
        帮我把{thing}取消了吧
        {thing}弄一下
        帮我处理一下{thing}
        把{thing}改一下
        帮我搞定{thing}
        {thing}怎么样了
        {thing}还要吗
        帮我把{thing}删了
        {thing}不要了
        帮我弄{thing}
        还是那个吧
        跟上次一样
        帮我写篇作文
        帮我P个图
        帮我修电脑
        帮我找个对象
        给我推荐只股票
        帮我写个周报
        帮我算算房贷
        帮我做个PPT
        你能帮我考试吗
        帮我还信用卡
        帮我退个货
        帮我查查话费
    """),
    "unknown:home": _lines("""
        {room}现在多少度
        {room}的温度是多少
        室内温度多少
        {room}湿度多少
        家里现在几度
        {room}的{dev}开着吗
        空调现在设的多少度
        继续播放
        上一首
        下一首
        音量调小一点
        暂停一下音乐
        把音乐停了
        恢复播放
        打开{yroom}嘅{ydev}
        閂咗{yroom}盞{ydev}
        熄{yroom}燈
        開{ydev}
        {yroom}{ydev}開咗未
        {yroom}而家幾多度
        播首歌嚟聽下
        下一首歌
        暫停播放
        大聲啲
        {yroom}窗簾打開一半
        鎖咗前門未
        掃地機器人返去充電
    """),
    "weather.query:colloquial": _lines("""
        外面冷吗
        今天要穿外套吗
        {day}会不会下雨啊
        出门要带伞不
        这两天天儿怎么样
        天气咋样
        {day}热不热啊
        周末天气好不好
        紫外线强吗
        {city}这会儿下雨没
        {day}适合晒被子吗
        今日天气点样
        听日会唔会落雨
        出面几度
        要唔要带遮
        {city}今日几度
        今日熱唔熱
    """),
    "datetime.query:colloquial": _lines("""
        几点啦
        现在啥时候了
        今儿几号
        今天是几号来着
        现在几点钟了
        而家几点
        今日几号
        宜家几点钟
        今日星期几
        今天几月几日
        现在是几点几分
        告诉我现在的时间
        现在的日期是什么
        今天什么日子
        而家係幾點
        今日係幾號
        {fest2}是几月几号
        {fest2}是什么时候
        今年{fest2}是哪天
        离{fest2}还有多少天
        还有几天到{fest2}
        {wcity}现在几点
        {wcity}那边几点了
        {wcity}和北京时差多少
        今年是闰年吗
        这个月有多少天
        今年是什么年
        距离周末还有几天
        还有几天放假
        下个月1号星期几
    """),
    "exercise.log:done": _lines("""
        刚{done}
        {past}{done}
        刚{done}，{dur}
        {done}了，大概{dur}
        我{past}{done}
        刚刚{done}回来
        {past}去{done}了
        {done}，记一下
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

MORE_TARGETS: dict[str, int] = {
    "reminder.create:timer": 320,
    "reminder.list:timer": 180,
    "reminder.cancel:timer": 150,
    "chitchat:small": 70,
    "chitchat:tasky": 220,
    "recipe.query:colloquial": 120,
    "unknown:vague": 110,
    "unknown:home": 160,
    "weather.query:colloquial": 90,
    "datetime.query:colloquial": 140,
    "reminder.create:note": 150,
    "exercise.log:done": 120,
}
