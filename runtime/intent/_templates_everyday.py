"""Own-example templates for everyday questions and reports said colloquially: a recipe, the weather,
the date (also abroad and on festivals), a workout just done.
"""

from __future__ import annotations

from ._templates import _lines, _words

SLOTS: dict[str, tuple[str, ...]] = {
    "dish2": _words("红烧肉 可乐鸡翅 番茄炒蛋 宫保鸡丁 酸菜鱼 麻婆豆腐 糖醋排骨 蛋炒饭 鱼香肉丝 水煮鱼 "
                    "清蒸鲈鱼 地三鲜 回锅肉 土豆丝 蒜蓉西兰花 蛋挞 凉拌黄瓜 羊肉汤"),
    "fest2": _words("植树节 母亲节 父亲节 情人节 七夕 重阳节 腊八 元宵节 冬至 儿童节 教师节 感恩节 圣诞节 除夕 小年"),
    "wcity": _words("纽约 伦敦 东京 旧金山 巴黎 悉尼 洛杉矶 新加坡 首尔 柏林 温哥华"),
    "done": _words("游完泳 跑完步 打完球 骑完车 练完瑜伽 健完身 跳完绳 爬完山 散完步 踢完球 游了泳 跑了步 打了球"),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
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
}
