"""Own-example templates for talk that asks the bot for nothing: small talk, chat that carries task
words (``chitchat``), and vague or smart-home requests the bot does not serve (``unknown``).
"""

from __future__ import annotations

from ._templates import _lines, _words

SLOTS: dict[str, tuple[str, ...]] = {
    "dish": _words("火锅 烧烤 小龙虾 饺子 麻辣烫 炸鸡 烤鸭 寿司 螺蛳粉 红烧肉 奶茶 蛋糕"),
    "who": _words("朋友 同事 家里人 老同学 闺蜜 室友 爸妈 对象"),
    "thing": _words("那个事儿 那个 这个 那件事 刚才那个 之前那个 那玩意儿 上次那个"),
    "meal": _words("晚饭 午饭 早饭 今晚 中午 刚才 昨晚"),
    "full": _words("好撑 太饱了 吃多了 不太好吃 挺香的 有点咸 一般般"),
    "feature": _words("提醒 提醒功能 菜单推荐 运动计划 天气预报 记录功能 菜谱"),
    "praise": _words("还挺准的 真好用 挺方便 不太准啊 有点烦 太棒了 还不错 一般般吧"),
    "feel": _words("好累 好爽 腿好酸 出了一身汗 累死了 感觉不错 好饿"),
    "yroom": _words("客廳 睡房 廚房 書房 露台 廁所 飯廳"),
    "ydev": _words("燈 冷氣 電視 風扇 抽濕機 窗簾 熱水爐 音響 吸塵機"),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
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
}
