"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger
from skills.weather import CITIES

_CITY = "|".join(sorted(CITIES, key=len, reverse=True))  # 我在等着你 is no city

__all__ = ["TRIGGERS"]

_FIELD = r"身高|体重|目标|常住城市|默认城市|忌口"
_CHANGE = (r"更新|修改|改一下|改改|改成|改为|改到|调成|调整|换成|变成|设置|设为|设成|设一下|记一下|记成|记为|记作|写成|填成|"
           r"录入|填一下|填个|是")
_NUM = r"[\d一二两三四五六七八九十百.]+"
_CONDITION = (r"痛风|高血压|糖尿病|高血脂|乳糖不耐|胃病|胃炎|胃溃疡|(?:血压|血糖|血脂|尿酸)(?:有点|有些|比较|偏)?高|胃不好"
              r"|心脏病|心脏不好|冠心病|贫血|哮喘")

# a height or a weight said by its value alone ("一米八 一百五十斤 帮我记一下", "1米65，52公斤")
_HEIGHT = r"(?:1|一)米[\d一二三四五六七八九]{0,2}|1\.\d{1,2}米|[12]\d{2}\s*(?:cm|CM|厘米|公分)"
_WEIGHT = r"(?:\d{2,3}(?:\.\d)?|[一二三四五六七八九]?[十百][一二三四五六七八九十]{0,3})(?:来|多)?\s*(?:斤|公斤|kg|KG|千克)"
_AILMENT = r"老毛病|毛病|慢性病|基础病|病史|病"
# a discourse marker before what is said of oneself: "对了，我有哮喘", "另外我有高血压"
_LEAD = r"(?:(?:哦|噢|嗯|啊)?(?:对了|另外|还有|顺便说一下|顺便|忘了说)[，,、\s]*)?"
_FILLER = r"\s|[，,、。]|我|身高|体重|帮我|给我|你|记一下|记下|记住|记着|记录一下|记上|吧|哈|呀|啊"

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "profile.update", "profile.update", order=140,
        pattern=(
            r"我的目标是|目标(改成|是|设为)|我(想|要)(减脂|增肌|减肥|控糖|保持)|身高\s*[\d一两]|体重\s*[\d一二两三四五六七八九十百]|我(身高|体重)|"
            r"我\d+(斤|公斤|kg|cm|厘米)|(我)?对.{1,6}过敏|我不吃|我是素食|我住在|"
            rf"^我(现在)?(在|住|人在)(?:{_CITY})(市)?$|"
            r"(默认|常住)城市|我(已经)?(搬到|搬去|定居在?)[\u4e00-\u9fa5]{2,5}(市)?了?$|"
            # a field and how it changes: 把体重更新为70 / 体重降到一百三十来斤了 / 更新一下我的身高
            rf"(?:{_FIELD})(?:要|想|帮我|给我|麻烦你?|请你?)*(?:{_CHANGE}|降到|掉到|减到|涨到|长到|到了|变了)|"
            rf"(?:{_CHANGE})(?:一下)?(?:我的)?(?:{_FIELD}|个人资料|资料|档案)|"
            # what I weigh now: 我现在一百三十斤 / 现在六十二公斤
            rf"(?:^我|我现在|现在|目前|我已经)[^，,。]{{0,3}}?{_NUM}(?:来|多)?(?:斤|公斤|kg|千克)(?![的肉菜米面排骨])|"

            rf"(?:^我|我现在|现在|目前)[^，,。]{{0,3}}?(?:1米|一米)[\d一二三四五六七八九几]|"
            # a health condition: 我有痛风 / 血压有点高
            rf"^{_LEAD}(?:我|本人)(?:有|得了|患有|确诊了?|查出)?(?:点)?(?:{_CONDITION})|"
            # what I do not eat, for good: 我不能吃海鲜 / 我海鲜过敏 / 我吃素 / 以后别给我安排辣的
            r"^我(?:一直|从来|平时)?(?:都)?(?:不能吃|吃不了|不爱吃|不吃|吃素|是素食|茹素|吃斋)|^我[^，,。]{1,6}过敏|"
            r"^(?:以后|今后|往后)(?:都|也)?(?:别|不要)(?:再)?(?:给我)?(?:安排|放|做|加|准备)?[^，,。]{0,3}(?:辣|香菜|葱|蒜|姜|肉|鱼|海鲜|甜|咸)"
        ),
        unless=r"提醒|天气|今天|明天|是什么|是多少|是啥|多少|英文|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用|买|吃什么|哪|来着|"
               r"(?<!不)能吃|可以吃|冰箱|家里|用了|用掉|做了|几两|几斤|几公斤|换算|等于|如何|怎样|治疗|症状|用药|"
               r"注意什么|禁忌|哪些|那些",
    ),
    Trigger(  # a health condition said of oneself, however long it has been: 我糖尿病好多年了，记一下
        "profile.update", "profile.update.condition", order=120,
        pattern=rf"^{_LEAD}(?:我|本人)(?:有|得了|患有|确诊了?|查出)?(?:点)?(?:{_CONDITION})(?:[^，,。？?]{{0,8}})?(?:[，,。]|$)",
        unless=r"吗|？|\?|怎么|为什么|能不能|能吃|可以吃|什么|啥|哪|提醒|多少|注意|治疗|症状|用药|禁忌",
    ),
    Trigger(  # the weight wished for: 打算瘦到一百一十斤 / 我要减到六十 / 目标体重55 (the weight now may follow)
        "profile.update", "profile.update.target", order=139,
        pattern=rf"(?:想|要|打算|争取|希望|准备|计划)(?:先)?(?:减|瘦|降|增重|增|长|涨)到\s*{_NUM}(?:来|多)?(?:斤|公斤|kg|千克)?(?![\d个块元天号点])"
                rf"|(?:目标体重|理想体重)\s*(?:是|定在|设在|定为|设为)?\s*{_NUM}",
        unless=r"吗|？|\?|怎么|为什么|能不能|多久|几天|几个月|需要|提醒|是多少|多少|几",
    ),
    Trigger(  # the weight now, said beside a weight wished for ("想增重到70公斤，现在才62"): one request with it
        "profile.update", "profile.update.now", order=291,
        pattern=rf"^(?:我)?(?:现在|目前|如今|眼下)(?:的)?(?:体重)?(?:才|只有|已经|都|是|有)?\s*{_NUM}(?:来|多)?(?:斤|公斤|kg|千克)?$",
    ),
    Trigger(  # the values alone: which field each is, the slots' own parsers tell
        "profile.update", "profile.update.values", order=290,
        pattern=rf"^(?=.*?(?:{_HEIGHT}|{_WEIGHT}))(?:{_HEIGHT}|{_WEIGHT}|{_FILLER})+$",
    ),
    Trigger(  # what the scale said: 今天称了下65公斤 / 早上称体重一百三十斤
        "profile.update", "profile.update.weighed", order=141,
        pattern=rf"称(?:了|出来)?(?:一)?下?(?:体重)?[^，,。]{{0,2}}?{_NUM}(?:来|多)?(?:斤|公斤|kg|千克)(?![的肉菜米面排骨])",
        unless=r"怎么|为什么|吗|？|\?|几斤|几两|换算|等于|婴儿|宝宝|孩子|胎儿|狗|猫|行李|快递",
    ),
    Trigger(  # what I weigh, asked alone ("那我现在几斤了"): before the pantry's "X几斤" (I am no food)
        "profile.view", "profile.view.own_weight", order=80,
        pattern=r"^(?:那|那么|所以|对了)?我(?:现在|目前|如今)?(?:到底|大概)?(?:有)?(?:多重|多沉|几重|多少斤|几斤|多少公斤|几公斤|多少千克)"
                r"(?:了|呀|啊|来着|呢)*[?？吗]?$",
    ),
    Trigger(
        "profile.view", "profile.view", order=150,
        pattern=r"(我的|查看|看看|看一下|看下|查下|查一下)(健康)?(档案|资料|信息|目标|身高|体重|身体数据|BMI|bmi)"
                r"|我(?:现在|目前|如今)?(?:到底)?(?:有)?(?:多高|几高|多重|多沉|几重|多少斤|几斤|多少公斤|几公斤|多少千克|多少kg|多少厘米|多少公分|的目标是什么)"
                r"|我(?:这|这个)?(?:体格|身材|体型|块头|个头|样子|体重)?(?:现在)?(?:算|是|属于|还算)?(?:偏)?(?:胖|瘦|超重|肥)"
                r"(?:吗|不|了吗|么|没)"
                # the BMI named with anything asked of it: 帮我算算BMI / 现在能算BMI了吧 / BMI呢
                r"|(?:BMI|bmi|Bmi|体质指数)"
                r"|我(?:现在|目前|如今)?的?(?:体重|身高|目标体重|理想体重|目标|BMI|bmi|体质指数)(?:现在|目前)?(?:是|有|定的|设的)?"
                r"(?:多少|几|啥|什么)"
                r"|^(?:我)?(?:的)?(?:目标体重|理想体重)(?:是|定的|设的)?(?:多少|几)"
                r"|离(?:我的)?目标(?:体重)?(?:还)?(?:差|有)(?:多少|几)"
                r"|我(?:现在)?(?:住|在)哪|我的?(?:常住|默认)?城市是?(?:哪|啥|什么)|我(?:对什么|对啥)过敏|我的?忌口"
                # an assessment of a measure: 我这个BMI正常吗 / 体重算标准不
                r"|(?:BMI|bmi|体质指数|体重)[^，,。]{0,6}?(?:正常|标准|超标|偏高|偏低|健康|合适|达标)(?:吗|不|么|没|嘛|吧|不正常)"
                r"|(?:我的?)?(?:BMI|bmi|体质指数)(?:现在|目前|如今)?(?:怎么样|咋样|如何|高不高|高吗|算啥|算什么)"
                # what is kept about one's health: 我的健康状况你记了哪些 / 我的身体情况
                r"|我的?(?:身体|健康)(?:情况|状况|状态)(?:[^，,。]{0,6}(?:哪些|啥|什么|怎样|怎么样))?[?？]?$"
                # the same asked with 有啥/有什么: 我健康上有啥情况你有记录吗 / 我健康上有什么问题你知道吗
                r"|我的?(?:身体|健康)(?:上)?有(?:啥|什么|哪些)(?:情况|状况|毛病|问题|病)"
                # the conditions kept, asked colloquially: 我都有啥毛病 / 你记了我哪些病 / 我有什么基础病来着
                rf"|我(?:都|还|身上)?有(?:啥|什么|哪些|哪几样)(?:{_AILMENT})"
                rf"|(?:记|存)(?:了|着|下了?)(?:我)?(?:的)?(?:啥|什么|哪些|几样)(?:{_AILMENT})",
        unless=r"什么意思|是啥意思|什么是|是什么东西|怎么算的?$|公式|标准是多少",
    ),
)
