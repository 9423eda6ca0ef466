"""A school's year of data for ``make bench-scale`` (issue 17 item 5): N learners, each with a
year of realistic history, made through the project's own core.

``build(path, learners, seed)`` creates a records store and plays, for every learner, a year
of teaching through ``Records(Store(path)).call(tool, args)``: the same validated tool path
(argument models, one transaction per call, result models) that ``records/call`` serves over
ROS. No row is inserted by hand: every record, event and FSRS state is written by a tool, in
the order the document's rules require, and every call must succeed (a refusal raises,
naming the tool and the error). 2,784 calls per learner:

* register_learner, create_pair, propose_contract, establish_contract, create_course with
  the contract (a 30-lesson course), one update_contract_cadence;
* 30 lessons, one every 11 days: add_lesson (Chinese markdown, ~1,000 characters), 2-3
  add_concept, 6-7 add_flashcard per lesson (200 cards), a mind-map seed, 3-4 add_exercise
  (100), publish_lesson, declare_lesson_progress (in progress, then learned), every exercise
  submitted and graded, record_post_lesson_evaluation, reflect_on_teaching, a few
  teacher-note patches and card edits, close_lesson_loop with its receipt;
* 10 of the lessons taught live: live_session_start, a FRAME and the teaching moves,
  live_learner_respond, two live_snapshot_write, live_declare_close, live_session_complete,
  record_live_evaluation (and the closing receipt cites the snapshot);
* 1,700 review_flashcard over the year, a few a day (most days), the cards most due first,
  FSRS scheduling them;
* hypotheses from her fourth lesson on (write, reinforce, her verdicts), record_feedback and
  update_feedback_status, ad-hoc exchanges (adhoc_learner_send, adhoc_message_send,
  adhoc_ack).

Time is an injected clock (``Records(store, clock=...)``): each learner's year starts on one
of the first 28 days of September 2025 and every call takes a few seconds of it, so the
timestamps are a year's. Ids are minted like the product's (prefix and 16 hex digits) from a
seeded generator, so a build is reproducible for a seed.

The build alone sets ``PRAGMA synchronous=OFF`` on its connection (and a larger page cache):
the build is not the product's durability, a crash mid-build means building again. Before
closing it sets ``synchronous=FULL`` and checkpoints, so the finished file is on disk. The
store the product opens keeps WAL with ``synchronous=FULL``.

One process plays about 1 s of CPU per learner, nearly all of it in the product's call path
(argument checks, pydantic, SQLite, FSRS: 1,700 of the calls are reviews), and the next
learner costs about the same at any size of the store (measured: 0.92 s of CPU at 10
learners, 1.01 s at 1,000; linear). ``workers`` > 1 builds contiguous ranges of learners in
parallel processes, each into its own file through the tools, then appends the shards to the
first file (``merge``: ATTACH and INSERT ... SELECT, table by table). The one thing the merge
changes is what SQLite numbers itself: the AUTOINCREMENT keys (``event.event_id``,
``adhoc_message.message_id``, ``live_event.seq``) and the references to them (the
``message_id`` in ad-hoc event payloads, ``consumer_cursor.seq``) move past the first file's,
exactly as one process would have numbered them: a learner's ids, clock, choices and FSRS fuzz
come from the seed and its index alone, so a merged store holds the same rows as a
one-process build (checked table by table on 4 learners).

``python -m bench.school --learners 10 --path /tmp/school.sqlite3`` builds one and prints its
figures (calls per learner, seconds per learner by hundreds, store size).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from multiprocessing import get_context

from robot_skills.records.api import Records, Store

YEAR_START = datetime(2025, 9, 1, 12, 0, tzinfo=UTC)
DAYS = 365
LESSONS = 30
EVERY = 11                       # days between two lessons
FIRST_LESSON_DAY = 3
REVIEWS = 1700
EXERCISES = 100
FLASHCARDS = 200
LIVE = frozenset(range(1, LESSONS, 3))                # 10 lessons taught live
RATINGS = (('again', 0.10), ('hard', 0.15), ('good', 0.62), ('easy', 0.13))


class BuildError(RuntimeError):
    """A tool call of the build was refused: the build is broken, not the data."""


# ---- what is taught: 高一物理·力学, 30 lessons ---------------------------------------------------

# (title, scene, [(concept, definition, example)], worked problem, its answer, a misconception)
TOPICS = [
    ('质点与参考系', '坐在行驶的高铁上，窗外的树向后飞去，而邻座的乘客一动不动',
     [('质点', '忽略大小和形状、只保留质量的理想化物体', '研究地球公转时把地球看作质点'),
      ('参考系', '描述物体运动时选作标准的物体', '以站台为参考系，列车在运动'),
      ('坐标系', '在参考系上建立的、用数值描述位置的工具', '沿跑道建立一维坐标轴')],
     '研究运动员跳水的翻转动作时，能否把运动员看作质点？', '不能，动作与身体形状有关',
     '只有很小的物体才能看作质点'),
    ('位移与路程', '绕操场跑一圈回到起点，跑了 400 米，却好像哪儿也没去',
     [('位移', '从初位置指向末位置的有向线段，是矢量', '绕操场一圈位移为零'),
      ('路程', '物体运动轨迹的长度，是标量', '绕操场一圈路程为 400 米'),
      ('矢量', '既有大小又有方向的物理量', '位移、速度、力都是矢量')],
     '小明向东走 3 米再向北走 4 米，位移多大？', '5 米，方向东偏北约 53°',
     '位移的大小总等于路程'),
    ('速度', '同样跑完一百米，有人用 12 秒，有人用 15 秒',
     [('平均速度', '位移与所用时间之比', '百米跑平均速度约 8 m/s'),
      ('瞬时速度', '物体在某一时刻或某一位置的速度', '汽车速度表显示的读数'),
      ('速率', '瞬时速度的大小', '测速仪测得的 60 km/h')],
     '汽车 2 小时向东行驶 120 千米，平均速度是多少？', '60 km/h，方向向东',
     '平均速度就是速度的平均值'),
    ('加速度', '跑车起步三秒破百，公交车起步却慢悠悠',
     [('加速度', '速度变化量与所用时间之比，描述速度变化的快慢', '跑车起步加速度大'),
      ('速度变化量', '末速度减去初速度，是矢量', '从 2 m/s 加到 8 m/s，变化 6 m/s')],
     '汽车 5 秒内速度从 10 m/s 增加到 20 m/s，加速度多大？', '2 m/s²',
     '速度大，加速度一定大'),
    ('匀变速直线运动的速度规律', '汽车匀加速驶出收费站，速度表的指针均匀地转动',
     [('匀变速直线运动', '加速度不变的直线运动', '自由下落的小球'),
      ('速度公式', 'v = v0 + at', '已知初速度和加速度求任意时刻速度'),
      ('v-t 图像', '速度随时间变化的图像，斜率表示加速度', '匀加速运动的 v-t 图是倾斜直线')],
     '初速度 2 m/s、加速度 3 m/s² 的物体，4 秒末速度多大？', '14 m/s',
     'v-t 图像就是物体的运动轨迹'),
    ('匀变速直线运动的位移规律', '刹车后汽车还要滑行一段距离才停下',
     [('位移公式', 'x = v0t + at²/2', '已知时间求匀加速运动的位移'),
      ('速度位移关系', 'v² - v0² = 2ax', '不涉及时间时求刹车距离')],
     '汽车以 20 m/s 刹车，加速度大小 5 m/s²，滑行多远停下？', '40 米',
     '刹车问题直接代入时间，不判断车是否已经停下'),
    ('自由落体运动', '从同一高度同时放下羽毛和铁球，在真空管里它们一起落地',
     [('自由落体运动', '只受重力、从静止开始下落的运动', '真空中羽毛和铁球同时落地'),
      ('重力加速度', '自由落体的加速度，约 9.8 m/s²', '在赤道略小、两极略大'),
      ('伽利略的研究方法', '把实验和逻辑推理结合起来的方法', '斜面实验冲淡重力')],
     '小球从 20 米高处自由下落，落地需要多长时间？（g 取 10 m/s²）', '2 秒',
     '重的物体下落得更快'),
    ('重力与弹力', '弹簧秤挂上苹果，指针稳稳地停在一个刻度上',
     [('重力', '由于地球吸引而使物体受到的力', '苹果受到竖直向下的重力'),
      ('弹力', '发生弹性形变的物体对与它接触的物体产生的力', '桌面对书的支持力'),
      ('胡克定律', '弹簧弹力与形变量成正比，F = kx', '弹簧秤的刻度是均匀的')],
     '劲度系数 200 N/m 的弹簧伸长 5 厘米，弹力多大？', '10 N',
     '只有弹簧才会产生弹力'),
    ('摩擦力', '推一下箱子推不动，用力推才动起来',
     [('静摩擦力', '相对静止的接触面间阻碍相对运动趋势的力', '推不动的箱子受静摩擦力'),
      ('滑动摩擦力', '相对滑动的接触面间阻碍相对运动的力，f = μN', '刹车时轮胎与地面的摩擦'),
      ('动摩擦因数', '滑动摩擦力与正压力之比，与接触面的材料和粗糙程度有关', '冰面的动摩擦因数小')],
     '重 100 N 的木箱在水平地面滑动，μ = 0.3，滑动摩擦力多大？', '30 N',
     '摩擦力总是阻碍物体的运动'),
    ('力的合成', '两个人一起拉一辆车，比一个人拉轻松',
     [('合力', '产生的效果与几个力共同作用效果相同的一个力', '两人拉车的合力'),
      ('平行四边形定则', '以两个分力为邻边作平行四边形，对角线表示合力',
       '求两个互成角度的力的合力')],
     '3 N 和 4 N 的两个力互相垂直，合力多大？', '5 N',
     '合力一定大于每一个分力'),
    ('力的分解', '斜面上的木块，重力好像被"拆"成了两个方向',
     [('分力', '几个力共同作用的效果与某个力相同，这几个力叫那个力的分力', '斜面上重力的两个分力'),
      ('正交分解', '把力沿两个互相垂直的方向分解', '沿斜面和垂直斜面分解重力'),
      ('按效果分解', '根据力产生的实际效果确定分力方向', '拉杆箱的拉力分解')],
     '倾角 30° 的斜面上有重 10 N 的木块，沿斜面的分力多大？', '5 N',
     '分解出的分力是物体另外受到的力'),
    ('共点力的平衡', '吊灯静静地挂在天花板下',
     [('平衡状态', '物体保持静止或匀速直线运动的状态', '匀速行驶的汽车'),
      ('平衡条件', '物体所受合力为零', '吊灯受的重力与拉力大小相等')],
     '用两根绳子吊起重物，两绳夹角增大时绳的拉力怎样变化？', '拉力增大',
     '速度为零的物体一定处于平衡状态'),
    ('牛顿第一定律', '公交车急刹车，站着的乘客向前倾',
     [('惯性', '物体保持原来运动状态的性质', '急刹车时乘客前倾'),
      ('牛顿第一定律', '一切物体在没有受到力的作用时，总保持静止或匀速直线运动状态',
       '冰面上滑出的冰壶'),
      ('力与运动的关系', '力是改变物体运动状态的原因，而不是维持运动的原因',
       '推力撤去后小车慢慢停下是因为摩擦')],
     '为什么跳远运动员要助跑？', '利用惯性，起跳时保持较大的水平速度',
     '惯性是一种力，速度越大惯性越大'),
    ('牛顿第二定律', '同样的力推空车和满载的购物车，效果完全不同',
     [('牛顿第二定律', '加速度与合力成正比、与质量成反比，F = ma', '推空车加速快'),
      ('力的单位牛顿', '使 1 kg 物体产生 1 m/s² 加速度的力为 1 N', '一个苹果重约 1 N'),
      ('瞬时性', '加速度与合力同时产生、同时变化、同时消失', '剪断弹簧瞬间的加速度')],
     '质量 2 kg 的物体受 10 N 合力，加速度多大？', '5 m/s²',
     '物体的运动方向一定与合力方向相同'),
    ('牛顿第三定律', '划船时桨向后推水，船却向前走',
     [('作用力与反作用力', '两个物体之间相互作用的一对力', '桨推水、水推桨'),
      ('牛顿第三定律', '作用力与反作用力大小相等、方向相反、作用在同一直线上',
       '人走路时脚与地面的相互作用')],
     '拔河比赛中，赢的一方拉对方的力更大吗？', '不是，两队之间的拉力大小相等',
     '作用力与反作用力可以互相抵消'),
    ('超重与失重', '电梯启动时身体一沉，停下时身体一轻',
     [('超重', '物体对支持物的压力大于所受重力的现象', '电梯加速上升时'),
      ('失重', '物体对支持物的压力小于所受重力的现象', '电梯加速下降时'),
      ('完全失重', '物体对支持物的压力为零的状态', '空间站中的宇航员')],
     '电梯以 2 m/s² 加速上升，60 kg 的人对地板压力多大？（g 取 10 m/s²）', '720 N',
     '超重就是物体的重力变大了'),
    ('曲线运动', '投出的篮球划出一道弧线',
     [('曲线运动', '轨迹是曲线的运动，速度方向沿轨迹切线', '投出的篮球'),
      ('物体做曲线运动的条件', '合力方向与速度方向不在同一直线上', '水平抛出的石子'),
      ('运动的合成与分解', '把复杂运动看成几个简单运动的叠加', '小船渡河')],
     '小船在静水中速度 4 m/s，河水流速 3 m/s，船头垂直河岸时实际速度多大？', '5 m/s',
     '曲线运动的加速度一定在变化'),
    ('平抛运动', '桌边滚落的小球落在离桌脚不远的地方',
     [('平抛运动', '水平抛出、只受重力的运动', '桌边滚落的小球'),
      ('平抛的分解', '水平方向匀速直线运动，竖直方向自由落体', '落地时间只由高度决定')],
     '从 5 米高处以 10 m/s 水平抛出小球，水平飞行多远？（g 取 10 m/s²）', '10 米',
     '抛出速度越大，落地时间越长'),
    ('圆周运动', '旋转木马上，外圈的马比内圈的跑得快',
     [('线速度', '做圆周运动的物体通过的弧长与时间之比', '外圈木马线速度大'),
      ('角速度', '半径转过的角度与时间之比', '同一转盘上各点角速度相同'),
      ('周期', '转动一周所用的时间', '地球自转周期约 24 小时')],
     '半径 2 米、角速度 3 rad/s 的圆周运动，线速度多大？', '6 m/s',
     '匀速圆周运动是匀速运动'),
    ('向心力', '汽车转弯时，乘客好像被"甩"向外侧',
     [('向心力', '使物体做圆周运动的、指向圆心的合力', '绳子拉着小球做圆周运动'),
      ('向心加速度', '方向指向圆心、大小为 v²/r 的加速度', '汽车转弯的向心加速度'),
      ('离心现象', '合力不足以提供向心力时物体远离圆心的现象', '洗衣机甩干衣服')],
     '质量 1 kg 的小球以 2 m/s 在半径 0.5 米的圆上运动，向心力多大？', '8 N',
     '向心力是物体另外受到的一个力'),
    ('万有引力定律', '苹果落地和月亮绕地球转，原来是同一种力',
     [('万有引力定律', '两物体间引力与质量乘积成正比、与距离平方成反比', '月亮绕地球转'),
      ('引力常量', 'G 约为 6.67×10⁻¹¹ N·m²/kg²，由卡文迪什测出', '扭秤实验')],
     '两物体距离变为原来的 2 倍，引力变为原来的多少？', '四分之一',
     '只有天体之间才有万有引力'),
    ('宇宙航行', '火箭把卫星送上天，卫星却不会掉下来',
     [('第一宇宙速度', '卫星绕地球表面做圆周运动的速度，约 7.9 km/s', '近地卫星'),
      ('同步卫星', '周期与地球自转周期相同、位于赤道上空的卫星', '通信卫星'),
      ('环绕速度', '轨道半径越大，环绕速度越小', '高轨卫星比低轨卫星慢')],
     '轨道半径越大的卫星，周期越长还是越短？', '越长',
     '卫星离地越远速度越大'),
    ('功', '同样搬一箱书，抬着走平路和搬上楼，累的程度不同',
     [('功', '力与物体在力的方向上位移的乘积，W = Fl cosα', '搬书上楼对书做功'),
      ('正功与负功', '力与位移夹角小于 90° 做正功，大于 90° 做负功', '摩擦力对滑行的箱子做负功'),
      ('总功', '各个力做功的代数和', '求合力做的功')],
     '用 10 N 的水平力把箱子推动 5 米，推力做功多少？', '50 J',
     '有力作用在物体上，力就一定做功'),
    ('功率', '同一段楼梯，跑上去和走上去做的功一样多，却累得不一样',
     [('功率', '功与完成这些功所用时间之比，表示做功的快慢', '跑上楼功率大'),
      ('额定功率', '机器长时间正常工作的最大功率', '汽车发动机的额定功率'),
      ('功率与速度', 'P = Fv', '汽车上坡要换低速挡')],
     '汽车功率 60 kW、速度 20 m/s 时牵引力多大？', '3000 N',
     '功率大的机器做功一定多'),
    ('动能定理', '子弹射穿木板后速度变慢了',
     [('动能', '物体由于运动而具有的能量，Ek = mv²/2', '飞行的子弹'),
      ('动能定理', '合力做的功等于物体动能的变化', '子弹穿木板后动能减少')],
     '质量 2 kg 的物体从静止加速到 3 m/s，合力做功多少？', '9 J',
     '动能定理只适用于直线运动'),
    ('重力势能', '高处的花盆让人担心，因为它"储存"着能量',
     [('重力势能', '物体由于被举高而具有的能量，Ep = mgh', '高处的花盆'),
      ('零势能面', '规定重力势能为零的参考平面', '以地面为零势能面'),
      ('重力做功与势能变化', '重力做正功，重力势能减少', '物体下落时')],
     '质量 1 kg 的物体从 5 米高处落到地面，重力势能减少多少？（g 取 10 m/s²）', '50 J',
     '重力势能的大小与零势能面的选择无关'),
    ('机械能守恒定律', '荡秋千时，高处慢、低处快，来来回回',
     [('机械能', '动能与势能的总和', '秋千的机械能'),
      ('机械能守恒定律', '只有重力或弹力做功时，动能与势能相互转化而总量不变', '忽略阻力的秋千'),
      ('守恒条件', '除重力和弹力外其他力不做功', '有摩擦时机械能不守恒')],
     '小球从 0.8 米高处由静止滑下光滑曲面，到底端速度多大？（g 取 10 m/s²）', '4 m/s',
     '物体受到的合力为零时机械能一定守恒'),
    ('动量', '接球时手往回收，就不那么疼了',
     [('动量', '质量与速度的乘积，p = mv，是矢量', '飞来的篮球'),
      ('冲量', '力与作用时间的乘积，I = Ft', '接球时延长作用时间'),
      ('动量定理', '合力的冲量等于动量的变化', '跳远落在沙坑里')],
     '质量 0.5 kg 的球以 10 m/s 飞来，被接住停下，动量变化多大？', '5 kg·m/s',
     '动量大的物体速度一定大'),
    ('动量守恒定律', '溜冰场上两人互推，各自向后滑开',
     [('系统与内力', '相互作用的物体组成系统，系统内物体间的力叫内力', '两个溜冰的人'),
      ('动量守恒定律', '系统不受外力或合外力为零时，总动量保持不变', '互推的溜冰者'),
      ('碰撞', '相互作用时间很短、内力远大于外力的过程', '台球相碰')],
     '静止的两人互推，50 kg 的人以 2 m/s 后退，40 kg 的人速度多大？', '2.5 m/s，方向相反',
     '系统动量守恒时每个物体的动量都不变'),
    ('力学复习', '一学年的力学，从一个质点开始，到能量和动量结束',
     [('受力分析', '按重力、弹力、摩擦力的顺序找出物体受的所有力', '斜面上的木块'),
      ('运动与力的关系', '用牛顿定律把受力和运动联系起来', '先求加速度再求运动'),
      ('守恒观点', '用能量守恒或动量守恒解决过程复杂的问题', '碰撞和弹簧问题')],
     '解力学题时，什么情况下优先用能量观点？', '只关心始末状态、不关心过程细节时',
     '每道题都要从受力分析一步步算'),
]

NAMES = ('林小雨', '王芳', '陈思远', '李明轩', '张可欣', '刘子涵', '杨一诺', '赵雨桐', '黄嘉怡',
         '周若曦', '吴浩然', '徐梓萱', '孙悦', '马天宇', '朱晨曦', '胡欣然', '郭子墨', '何静怡',
         '高文博', '罗佳琪')
DOMAINS = ('受力分析', '公式运用', '图像理解', '审题习惯', '矢量方向', '单位换算')
OBSERVATIONS = ('她画受力图时常漏掉摩擦力', '她套用公式前很少先判断适用条件',
                '她读 v-t 图时容易把斜率和面积混淆',
                '她审题时常忽略"光滑""匀速"这类条件', '她处理矢量时经常忘记规定正方向',
                '她计算时常把厘米和米混用')
ANSWERS = ('我觉得是{a}，因为{d}。', '{a}。我先画了图，再列式算的。',
           '应该是{a}吧，不太确定单位对不对。',
           '我的答案：{a}。思路是先找出已知量再代公式。')
FRAMES = ('今天我们练{t}，大约二十五分钟，做完三道题就算完成。',
          '做什么：复习{t}；多久：半小时；怎么算完：能独立做对两道例题为止。',
          '目标：弄懂{t}；时长：40分钟；完成标准：三道题都做完。',
          '今晚一起梳理{t}，二十分钟，做对两道题就结束。')
ADHOC = (('{c}和{o}有什么区别呀？', '{c}是{d}；它和{o}说的不是一回事，下次课我们用例题对比一下。'),
         ('这道题我卡住了：{p}',
          '先别急着代公式：找出已知量，画个图，再看用哪个规律。答案应该是{a}。'),
         ('明天的课可以晚半小时开始吗？', '可以的，我把明天的提醒改到晚上八点。'))
FEEDBACK = ((
    'issue', '第{n}课的例题跳步太多了，我看不懂中间那一步。'), (
    'idea', '能不能每节课最后给一张总结图？'), (
    'issue', '闪卡里有一张的答案和课本写法不一样。'), (
    'idea', '希望 Live 课上多给我一点自己想的时间。'), (
    'issue', '习题的批改来得太慢了，我都忘了自己怎么想的。'), (
    'idea', '可以多出几道生活里的题吗？'))
REFLECTIONS = (
    ('explanation', 'lesson_revision', '第{n}课讲{c}时她追问了两次定义',
     '先给生活例子再给定义，她会更快抓住',
     '先定义后例子', '下一课先举两个生活例子'),
    ('task_design', 'exercise', '三道题里两道考的是同一个点', '换一道考图像的题，能看出她是否真懂',
     '例题加练习', '下一课的习题覆盖不同的角度'),
    ('pacing', 'cadence', '她在第三道题时明显累了', '把练习拆到两天做，效果会更好', '一次讲完',
     '下周把练习分两天'),
    ('feedback', 'flashcard', '她的错误集中在{c}上', '当时配一张针对{c}的闪卡会更好', '课后批改',
     '给{c}补一张闪卡'),
    ('relationship', 'feedback', '她说例题跳步太多', '每一步都写出来，她就不会卡住', '讲解例题',
     '回应她的反馈并把例题补全'),
    ('weather', 'none', '她说这周考试多、睡得少', '换个轻松的时间上课，状态会好些', '照常上课',
     '这周减少练习量'),
)


# ---- the text of a lesson ----------------------------------------------------------------------

def lesson_text(number: int, topic: tuple, concepts: list[tuple[str, str, str]]) -> str:
    title, scene, _, problem, answer, wrong = topic
    parts = [f'# {title}', '',
             f'> 本课目标：理解{"、".join(c[0] for c in concepts)}，能用它们分析生活中的问题。'
             f'这是力学课的第 {number} 课，预计用时 40 分钟。', '',
             '## 从生活说起', '',
             f'{scene}。这背后藏着什么道理？先别急着翻公式，想一想：如果换一个角度观察，'
             '你看到的还会一样吗？带着这个问题读下去。', '',
             '## 概念梳理', '']
    for name, definition, example in concepts:
        parts += [f'### {name}', '', f'**{name}**：{definition}。', '',
                  f'举个例子：{example}。读完这个例子，试着用自己的话复述一遍{name}，'
                  '再想一个课本以外的例子。', '']
    parts += ['## 例题', '', f'**例 1** {problem}', '',
              f'**解**：先明确研究对象和已知量，画出示意图，再选择合适的规律列式。'
              f'答案：{answer}。', '',
              '## 常见误区', '', f'- ❌ {wrong}。', f'- ✅ 回到定义：{concepts[0][1]}。',
              '- ✅ 解题前先画图、标方向、写已知量。', '',
              '## 小结', '',
              f'这节课我们认识了{"、".join(c[0] for c in concepts)}。下节课前，请完成课后练习，'
              '并把闪卡复习一遍；有不懂的地方随时在对话里问我。']
    return '\n'.join(parts)


def seed_map(title: str, concepts: list[tuple[str, str, str]]) -> dict:
    """A seed that follows the rules: root at (50, 8), 3 branches with 2-3 details each,
    siblings 14+ apart in y, a link across two branches."""
    branches = ['是什么', '怎么用', '易错点']
    details = [[c[0] for c in concepts][:3],
               ['列已知量', '选规律', '验结果'],
               ['看清条件', '规定方向']]
    nodes = [{'id': 'root', 'title': title, 'level': 'root', 'pos_x': 50, 'pos_y': 8,
              'is_expanded': True, 'sort_order': 0}]
    for b, (branch, leaves) in enumerate(zip(branches, details, strict=True)):
        nodes.append({'id': f'b{b}', 'title': branch, 'level': 'branch', 'pos_x': 20 + b * 30,
                      'pos_y': 20 + b * 16, 'is_expanded': True, 'sort_order': b,
                      'parent_id': 'root'})
        nodes += [{'id': f'b{b}d{d}', 'title': leaf, 'level': 'detail', 'pos_x': 12 + b * 30,
                   'pos_y': 40 + d * 16, 'is_expanded': False, 'sort_order': d,
                   'parent_id': f'b{b}'} for d, leaf in enumerate(leaves)]
    return {'nodes': nodes, 'links': [{'source': 'b0d0', 'target': 'b2d0'}]}


# ---- the build ----------------------------------------------------------------------------------

@dataclass
class Learner:
    """What the benchmark needs to sample one learner's reads."""

    learner_id: str
    pair_id: str
    course_id: str
    lesson_ids: list[str]
    flashcard_id: str
    exercise_id: str
    submission_id: str
    live_session_id: str
    contract_id: str = ''
    calls: int = 0
    seconds: float = 0.0         # wall time of its year
    cpu_seconds: float = 0.0     # CPU time of its year (the machine may be shared)


@dataclass
class School:
    path: str
    seed: int
    learners: list[Learner]
    calls: int
    seconds: float
    size_bytes: int
    calls_by_tool: dict[str, int] = field(default_factory=dict)
    merge_seconds: float = 0.0   # of the seconds, appending the shards (workers > 1)


class Clock:
    """The injected clock: a learner's year, moved forward by the build."""

    def __init__(self) -> None:
        self.now = YEAR_START

    def __call__(self) -> datetime:
        return self.now


class Ids:
    """Ids minted like the product's (prefix, 16 hex digits), from a seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.bits = rng.getrandbits

    def __call__(self, prefix: str) -> str:
        return f'{prefix}_{self.bits(64):016x}'


def build(path: str, learners: int, seed: int = 0, workers: int = 1,
          progress: Callable[[int, float], None] | None = None) -> School:
    """A records store at ``path`` (a new file) with ``learners`` learners' years of history.

    With ``workers`` > 1 the learners are split into contiguous ranges, each built through the
    tools in its own process into its own file (``path`` for the first, ``path.shardK`` for the
    others), and the shards are then appended to the first with ATTACH and INSERT ... SELECT
    (``merge``). Every learner's ids, clock and choices come from the seed and its index alone,
    so the merged store holds the same rows as a one-process build. ``progress(done,
    seconds)`` is called after each learner of the first range.
    """
    if os.path.exists(path):
        raise FileExistsError(f'{path} exists: the build makes a new store')
    began = time.perf_counter()
    workers = max(1, min(workers, learners))
    bounds = [learners * k // workers for k in range(workers + 1)]
    shards = [f'{path}.shard{k}' for k in range(1, workers)]
    for shard in shards:
        for suffix in ('', '-wal', '-shm'):
            if os.path.exists(shard + suffix):
                os.remove(shard + suffix)
    made, tools_used = [], {}
    with ProcessPoolExecutor(len(shards), mp_context=get_context('spawn')) if shards \
            else nullcontext() as pool:
        futures = [pool.submit(play, shard, bounds[k + 1], bounds[k + 2], seed)
                   for k, shard in enumerate(shards)]
        for learners_made, counts in [play(path, 0, bounds[1], seed, progress),
                                      *(future.result() for future in futures)]:
            made += learners_made
            for tool, count in counts.items():
                tools_used[tool] = tools_used.get(tool, 0) + count
    merging = time.perf_counter()
    for shard in shards:
        merge(path, shard)
        os.remove(shard)
    return School(path, seed, made, sum(learner.calls for learner in made),
                  time.perf_counter() - began, os.path.getsize(path), tools_used,
                  time.perf_counter() - merging)


def play(path: str, first: int, last: int, seed: int,
         progress: Callable[[int, float], None] | None = None
         ) -> tuple[list[Learner], dict[str, int]]:
    """Learners ``first`` .. ``last`` - 1, through the tools, into a new store at ``path``."""
    store = Store(path)
    store.db.execute('PRAGMA synchronous=OFF')       # the build only: see the docstring
    store.db.execute('PRAGMA cache_size=-262144')    # 256 MB of page cache for the build
    made: list[Learner] = []
    tools_used: dict[str, int] = {}
    began = time.perf_counter()
    try:
        for index in range(first, last):
            started, cpu = time.perf_counter(), time.process_time()
            random.seed(f'{seed}:{index}:fsrs')      # fsrs fuzzes intervals with the module's
            clock = Clock()
            records = Records(store, clock=clock,
                              new_id=Ids(random.Random(f'{seed}:{index}:ids')))
            learner = Year(records, clock, random.Random(f'{seed}:{index}'), index,
                           tools_used).play()
            learner.seconds = time.perf_counter() - started
            learner.cpu_seconds = time.process_time() - cpu
            made.append(learner)
            if progress is not None:
                progress(index - first + 1, time.perf_counter() - began)
        store.db.execute('PRAGMA synchronous=FULL')
        store.db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    finally:
        store.close()
    return made, tools_used


# The integer keys SQLite numbers itself (AUTOINCREMENT), and the references to them: a shard's
# are moved past the store's, as a one-process build would have numbered them.
RENUMBERED = {'event': 'event_id', 'adhoc_message': 'message_id', 'live_event': 'seq'}
REFERENCES = {('consumer_cursor', 'seq'): 'live_event'}
MESSAGE_IN_PAYLOAD = {'event': ('session_event.adhoc',),
                      'live_event': ('ad_hoc_question', 'ad_hoc_response')}


def merge(path: str, shard: str) -> None:
    """Append the store ``shard`` to the store ``path`` (both built by ``play``, disjoint
    learners): every table copied in rowid order, the AUTOINCREMENT keys renumbered."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute('PRAGMA synchronous=OFF')
        db.execute('ATTACH DATABASE ? AS shard', (shard,))
        tables = [row[0] for row in db.execute(
            "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%' ORDER BY rowid")]
        offsets = {table: (db.execute('SELECT seq FROM main.sqlite_sequence WHERE name = ?',
                                      (table,)).fetchone() or (0,))[0] for table in RENUMBERED}
        db.execute('BEGIN')
        for table in tables:
            columns = [row[1] for row in db.execute(f'PRAGMA main.table_info({table})')]
            keys = [row for row in db.execute(f'PRAGMA main.table_info({table})') if row[5]]
            if len(keys) == 1 and keys[0][2].upper() == 'INTEGER' and table not in RENUMBERED:
                raise RuntimeError(f'merge: {table}.{keys[0][1]} is numbered by SQLite and '
                                   'would collide: teach merge() to renumber it')
            moved = {RENUMBERED[table]: table} if table in RENUMBERED else {}
            moved.update({column: target for (name, column), target in REFERENCES.items()
                          if name == table})
            select = ', '.join(f'{c} + {offsets[moved[c]]}' if c in moved else c
                               for c in columns)
            names = ', '.join(columns)
            special = MESSAGE_IN_PAYLOAD.get(table, ())
            marks = ', '.join('?' * len(special))
            where = f'WHERE kind NOT IN ({marks})' if special else ''
            db.execute(f'INSERT INTO main.{table} ({names}) SELECT {select} FROM shard.{table} '
                       f'{where} ORDER BY rowid', special)
            for row in db.execute(f'SELECT {select} FROM shard.{table} WHERE kind IN ({marks}) '
                                  'ORDER BY rowid', special).fetchall() if special else []:
                values = dict(zip(columns, row, strict=True))
                payload = json.loads(values['payload'])
                payload['message_id'] += offsets['adhoc_message']
                values['payload'] = json.dumps(payload, ensure_ascii=False)
                db.execute(f'INSERT INTO main.{table} ({names}) VALUES '
                           f'({", ".join("?" * len(columns))})', tuple(values.values()))
        db.execute('COMMIT')
        db.execute('DETACH DATABASE shard')
        problems = db.execute('PRAGMA foreign_key_check').fetchall()
        if problems:
            raise RuntimeError(f'merge: foreign keys broken: {problems[:5]}')
        db.execute('PRAGMA synchronous=FULL')
        db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    finally:
        db.close()


class Year:
    """One learner's year, played tool call by tool call in the order of its days."""

    def __init__(self, records: Records, clock: Clock, rng: random.Random, index: int,
                 tools_used: dict[str, int]) -> None:
        self.records, self.clock, self.rng, self.index = records, clock, rng, index
        self.tools_used = tools_used
        self.start = YEAR_START + timedelta(days=index % 28)
        clock.now = self.start
        self.calls = 0
        self.pair = ''
        self.cards: list[tuple[str, str]] = []        # a heap of (due_at, flashcard_id)
        self.concepts: dict[str, list[str]] = {}      # concept id -> its card ids
        self.hypotheses: list[str] = []               # the ones still open to reinforce
        self.feedback: list[str] = []
        self.lessons: list[str] = []
        self.exercise = self.submission = self.live = ''
        self.reviews_left = REVIEWS

    # -- plumbing --

    def at(self, day: int, hour: float) -> None:
        """Move the clock to ``day`` at ``hour`` (UTC) of her year, never back."""
        self.clock.now = max(self.clock.now, self.start + timedelta(days=day, hours=hour - 12))

    def ok(self, tool: str, **args) -> dict:
        self.clock.now += timedelta(seconds=self.rng.randint(4, 40))
        result = self.records.call(tool, args)
        if not result.ok:
            raise BuildError(f'learner {self.index}: {tool} {args} refused ({result.code}): '
                             f'{result.error} {result.result or ""}')
        self.calls += 1
        self.tools_used[tool] = self.tools_used.get(tool, 0) + 1
        return result.result

    # -- the year --

    def play(self) -> Learner:
        agenda: dict[int, list[tuple[float, int, Callable[[], None]]]] = {}

        def plan(day: int, hour: float, step: Callable[[], None]) -> None:
            agenda.setdefault(day, []).append((hour, len(agenda.get(day, [])), step))

        self.sign_up()
        flashcards = self.spread(FLASHCARDS, LESSONS)
        exercises = self.spread(EXERCISES, LESSONS)
        for n in range(LESSONS):
            day = FIRST_LESSON_DAY + EVERY * n
            lesson: dict = {'n': n, 'cards': flashcards[n], 'exercises': exercises[n]}
            plan(day, 2, lambda lesson=lesson: self.prepare(lesson))
            plan(day, 11.5, lambda lesson=lesson: self.start_lesson(lesson))
            if n in LIVE:
                plan(day + 1, 11.5, lambda lesson=lesson: self.teach_live(lesson))
            plan(day + 2, 12, lambda lesson=lesson: self.practise(lesson))
            plan(day + 2, 14, lambda lesson=lesson: self.grade(lesson))
            plan(day + 3, 11, lambda lesson=lesson: self.finish(lesson))
            plan(day + 3, 13, lambda lesson=lesson: self.close(lesson))
            if n % 2 == 0:
                plan(day + 6, 10, lambda lesson=lesson: self.adhoc(lesson))
        plan(120, 3, self.change_cadence)
        review_days = [day for day in range(FIRST_LESSON_DAY, DAYS) if self.rng.random() < 0.85]
        for day in review_days:
            plan(day, 13.5, lambda day=day: self.review(day, review_days))
        for day in sorted(agenda):
            for hour, _, step in sorted(agenda[day], key=lambda item: item[:2]):
                self.at(day, hour)
                step()
        return Learner(self.learner_id, self.pair, self.course, self.lessons, self.card_sample,
                       self.exercise, self.submission, self.live, self.contract, self.calls)

    def spread(self, total: int, parts: int) -> list[int]:
        """``total`` split into ``parts`` near-equal whole numbers, in a shuffled order."""
        counts = [total // parts + (1 if i < total % parts else 0) for i in range(parts)]
        self.rng.shuffle(counts)
        return counts

    def sign_up(self) -> None:
        self.at(0, 12)
        name = f'{NAMES[self.index % len(NAMES)]}{self.index}'
        self.learner_id = f'learner-{self.index:05d}'
        self.ok('register_learner', learner_id=self.learner_id, display_name=name)
        self.pair = self.ok('create_pair', learner_id=self.learner_id, learner_display_name=name,
                            provider='anthropic', model='claude', display_name='小智')['pair_id']
        cadence = {'mode': 'scheduled', 'reminders': 'native',
                   'slots': [{'weekday': 2, 'time': '19:30', 'tz': 'Asia/Shanghai'},
                             {'weekday': 6, 'time': '10:00', 'tz': 'Asia/Shanghai'}]}
        self.contract = self.ok(
            'propose_contract', pair_id=self.pair, goal='一学年学完高一物理力学，能独立解综合题',
            time_range='2025-09 至 2026-08', success_criteria='期末力学综合题正确率达到 80%',
            intensity='standard', interaction_mode='guided', content_modality='text',
            pace='steady', weekly_capacity_hours=3, preferred_time_of_day='evening',
            cadence=cadence, title='高一力学学习契约')['contract_id']
        self.at(1, 12)
        self.ok('establish_contract', pair_id=self.pair, contract_id=self.contract,
                pace='relaxed' if self.rng.random() < 0.3 else 'steady',
                class_c={'reminder_channels': self.rng.choice([['push'], ['push', 'ical'], []])})
        self.course = self.ok('create_course', pair_id=self.pair, title='高一物理·力学',
                              description='从质点到动量守恒，一学年 30 课',
                              contract_id=self.contract,
                              planned_lesson_count=LESSONS)['course_id']

    def change_cadence(self) -> None:
        self.ok('update_contract_cadence', pair_id=self.pair, contract_id=self.contract,
                cadence={'mode': 'scheduled', 'reminders': 'native', 'weekly_review_nudge': True,
                         'slots': [{'weekday': 3, 'time': '20:00', 'tz': 'Asia/Shanghai'}]})

    def prepare(self, lesson: dict) -> None:
        """The agent prepares a lesson and publishes it through the gate."""
        n = lesson['n']
        topic = TOPICS[n]
        concepts = topic[2]
        lesson['concept_rows'] = concepts
        lesson['id'] = lesson_id = self.ok(
            'add_lesson', pair_id=self.pair, course_id=self.course, title=topic[0],
            content_markdown=lesson_text(n + 1, topic, concepts))['lesson_id']
        self.lessons.append(lesson_id)
        ids = [self.ok('add_concept', pair_id=self.pair, lesson_id=lesson_id, name=name,
                       short_definition=definition,
                       source_refs=['人教版高中物理必修一'])['concept_id']
               for name, definition, _ in concepts]
        lesson['concepts'] = ids
        fronts = ('什么是{n}？', '举一个{n}的生活例子。', '{n}最容易和什么混淆？')
        backs = ('{d}。', '{e}。', '记住定义：{d}。')
        for c in range(lesson['cards']):
            k = c % len(ids)
            name, definition, example = concepts[k]
            form = c // len(ids) % 3
            card = self.ok('add_flashcard', pair_id=self.pair, concept_id=ids[k],
                           front=fronts[form].format(n=name),
                           back=backs[form].format(d=definition, e=example),
                           deck_id='力学')
            heapq.heappush(self.cards, (card['due_at'], card['flashcard_id']))
            self.concepts.setdefault(ids[k], []).append(card['flashcard_id'])
        if n == 0:
            self.card_sample = card['flashcard_id']
        self.ok('add_mindmap_seed', pair_id=self.pair, lesson_id=lesson_id,
                content=seed_map(topic[0], concepts))
        problems = [(topic[3], topic[4])] + [
            (f'用自己的话解释{name}，并举一个例子。', f'{definition}；例如{example}。')
            for name, definition, example in concepts]
        lesson['exercise_ids'] = []
        for e in range(lesson['exercises']):
            prompt, answer = problems[e % len(problems)]
            if e >= len(problems):
                prompt = f'（变式）{prompt}'
            lesson['exercise_ids'].append(self.ok(
                'add_exercise', pair_id=self.pair, lesson_id=lesson_id, prompt=prompt,
                reference_answer=answer, expected_concepts=[ids[e % len(ids)]],
                tags=['课后练习', topic[0]])['exercise_id'])
        self.ok('publish_lesson', pair_id=self.pair, lesson_id=lesson_id)
        if not self.exercise:
            self.exercise = lesson['exercise_ids'][0]

    def start_lesson(self, lesson: dict) -> None:
        self.ok('declare_lesson_progress', pair_id=self.pair, lesson_id=lesson['id'],
                progress='in_progress')
        if lesson['n'] % 10 == 4:
            self.ok('patch_lesson', pair_id=self.pair, lesson_id=lesson['id'],
                    kind='teacher_note', body='补充：例题第二步的受力图见对话里的白板。',
                    source=f'基于你第{lesson["n"]}课的作业')

    def teach_live(self, lesson: dict) -> None:
        """A live session: FRAME, moves and her answers, snapshots, her bell, the close."""
        topic = TOPICS[lesson['n']]
        concept = lesson['concept_rows'][0]
        session = self.ok('live_session_start', pair_id=self.pair,
                          lesson_id=lesson['id'])['live_session_id']
        lesson['live'] = session
        self.live = self.live or session

        def move(kind: str, content: str, response: str = 'none') -> str:
            return self.ok('live_move_append', pair_id=self.pair, live_session_id=session,
                           move_type=kind, content=content, response_kind=response)['move_id']

        def answer(move_id: str, text: str) -> str:
            return self.ok('live_learner_respond', pair_id=self.pair, live_session_id=session,
                           move_id=move_id, text=text)['response_id']

        subject = topic[0] if len(topic[0]) > 1 else f'{topic[0]}的概念和计算'
        move('FRAME', self.rng.choice(FRAMES).format(t=subject))
        asked = move('ASK', f'先说说看：你觉得{concept[0]}是什么意思？', 'text')
        first = answer(asked, f'我觉得就是{concept[1][:12]}……吧？')
        move('EXPLAIN', f'很接近了。{concept[0]}：{concept[1]}。比如{concept[2]}。')
        probed = move('PROBE', f'那{topic[5]}这个说法对吗？为什么？', 'text')
        answer(probed, '好像不对，因为要回到定义去看。')
        snapshot = self.ok('live_snapshot_write', pair_id=self.pair, live_session_id=session,
                           body={'round': 3, 'covered': [concept[0]],
                                 'learner_state': '定义说得出，例子还要练'})['snapshot_id']
        lesson['snapshot'] = snapshot
        challenged = move('CHALLENGE', f'试试这道题：{topic[3]}', 'text')
        answer(challenged, f'我算出来是{topic[4]}。')
        move('FEEDBACK', '思路对了，步骤写得也清楚。下次记得先画图。')
        self.ok('live_snapshot_write', pair_id=self.pair, live_session_id=session,
                body={'round': 6, 'covered': [c[0] for c in lesson['concept_rows']],
                      'learner_state': '能独立做例题'})
        move('REFLECT', '回顾一下：今天我们从生活现象出发，弄清了定义，又做了一道题。')
        self.ok('live_declare_close', pair_id=self.pair, live_session_id=session)
        self.ok('live_session_complete', pair_id=self.pair, live_session_id=session,
                summary=f'她弄清了{concept[0]}的定义，能独立做出例题。',
                teacher_reflection='讲定义前先用了生活例子，她接受得很快。',
                next_action='课后练习里再巩固一次，下节课开头抽查。')
        self.ok('record_live_evaluation', pair_id=self.pair, live_session_id=session,
                agent_observation=f'她对{concept[0]}的理解从模糊到清楚，例题一次做对。',
                evidence_refs=[snapshot, first])

    def practise(self, lesson: dict) -> None:
        topic = TOPICS[lesson['n']]
        lesson['submissions'] = []
        for exercise in lesson['exercise_ids']:
            text = self.rng.choice(ANSWERS).format(a=topic[4], d=lesson['concept_rows'][0][1][:16])
            submission = self.ok('submit_exercise', pair_id=self.pair, exercise_id=exercise,
                                 learner_answer=text,
                                 confidence=self.rng.choice(['low', 'medium', 'high']))
            lesson['submissions'].append(submission['submission_id'])
        self.submission = self.submission or lesson['submissions'][0]

    def grade(self, lesson: dict) -> None:
        lesson['wrong'] = []
        for submission in lesson['submissions']:
            score = self.rng.choice([100, 95, 90, 85, 80, 70, 60, 45, 30])
            graded = self.ok('grade_exercise', pair_id=self.pair, submission_id=submission,
                             score=score, feedback='思路清楚，步骤完整。' if score >= 60 else
                             '方向判断错了：回到定义，先画受力图再列式。')
            if graded.get('concept_refs'):
                lesson['wrong'].append(submission)

    def finish(self, lesson: dict) -> None:
        """She declares the lesson learned; the agent evaluates and reflects."""
        n = lesson['n']
        self.ok('declare_lesson_progress', pair_id=self.pair, lesson_id=lesson['id'],
                progress='completed_declared')
        distribution = {'good': self.rng.randint(3, 9), 'again': self.rng.randint(0, 3)}
        self.ok('record_post_lesson_evaluation', pair_id=self.pair, lesson_id=lesson['id'],
                concepts_touched=lesson['concepts'],
                flashcards_reviewed_count=sum(distribution.values()),
                flashcards_rating_distribution=distribution,
                exercises_submitted_count=len(lesson['submissions']),
                live_turns_count=9 if 'live' in lesson else 0,
                duration_minutes=self.rng.choice([35, 40, 45, 50]),
                agent_observation='整体掌握得不错；' + (
                    '有一道题方向判断错了，下一课开头再练一次。' if lesson['wrong'] else
                    '练习全对，下一课可以加快一点。'),
                evidence_refs=lesson['submissions'][:2])
        kind = REFLECTIONS[n % len(REFLECTIONS)]
        concept = lesson['concept_rows'][0][0]
        extra = ({'weather_expires_at': (self.clock.now + timedelta(days=5)).isoformat()}
                 if kind[0] == 'weather' else {})
        self.ok('reflect_on_teaching', pair_id=self.pair, lesson_id=lesson['id'],
                main_attribution=kind[0], action_link={'type': kind[1], 'ref': lesson['id']},
                evidence=kind[2].format(n=n + 1, c=concept), counterfactual=kind[3].format(
                    c=concept), method=kind[4], next_action=kind[5].format(c=concept), **extra)
        if lesson['wrong'] and lesson['concepts'][0] in self.concepts:
            card = self.concepts[lesson['concepts'][0]][0]
            self.ok('update_flashcard', pair_id=self.pair, flashcard_id=card,
                    back=f'记住定义：{lesson["concept_rows"][0][1]}。（订正后补充）')
            lesson['card_changed'] = card
        if n >= 3:
            self.learner_model(lesson)
        if n % 5 == 2:
            text = FEEDBACK[n // 5 % len(FEEDBACK)]
            self.feedback.append(self.ok(
                'record_feedback', pair_id=self.pair, kind=text[0], text=text[1].format(n=n + 1),
                lesson_id=lesson['id'], **({'boundary_update': {'add_domains': ['家庭情况']}}
                                           if n == 2 else {}))['feedback_id'])
        elif self.feedback and n % 5 == 4:
            feedback = self.feedback.pop(0)
            self.ok('update_feedback_status', pair_id=self.pair, feedback_id=feedback,
                    status='acknowledged')
            self.ok('update_feedback_status', pair_id=self.pair, feedback_id=feedback,
                    status='addressed', note='已在后面的课里改进')

    def learner_model(self, lesson: dict) -> None:
        n = lesson['n']
        if n % 5 == 3:
            k = n // 5 % len(DOMAINS)
            written = self.ok('write_hypothesis', pair_id=self.pair, domain=DOMAINS[k],
                              observation=OBSERVATIONS[k], confidence=0.6,
                              evidence_event_ids=lesson['submissions'][:1])
            self.hypotheses.append(written['hypothesis_id'])
            lesson['hypothesis'] = written['hypothesis_id']
        elif self.hypotheses and n % 5 == 0:
            self.ok('write_hypothesis', pair_id=self.pair, hypothesis_id=self.hypotheses[-1],
                    action='reinforce', evidence_event_ids=lesson['submissions'][:1])
        elif self.hypotheses and n % 10 == 6:
            verdict = self.rng.choice(['confirmed', 'confirmed', 'frozen'])
            hypothesis = self.hypotheses.pop()
            self.ok('set_hypothesis_verdict', pair_id=self.pair, hypothesis_id=hypothesis,
                    verdict=verdict)

    def close(self, lesson: dict) -> None:
        receipt = [{'kind': 'exercise_feedback', 'ref_id': s, 'description': '批改已发给她'}
                   for s in lesson['submissions'][:2]]
        if 'snapshot' in lesson:
            receipt.append({'kind': 'journal_entry', 'ref_id': lesson['snapshot'],
                            'description': 'Live 课的第三轮快照记下了她的进展'})
        if 'card_changed' in lesson:
            receipt.append({'kind': 'flashcard_change', 'ref_id': lesson['card_changed'],
                            'description': '订正了闪卡的答案'})
        if 'hypothesis' in lesson:
            receipt.append({'kind': 'hypothesis_update', 'ref_id': lesson['hypothesis'],
                            'description': '记下了一条学习者假设'})
        self.ok('close_lesson_loop', pair_id=self.pair, lesson_id=lesson['id'], receipt=receipt)

    def adhoc(self, lesson: dict) -> None:
        topic = TOPICS[lesson['n']]
        concept = lesson['concept_rows'][0]
        other = lesson['concept_rows'][1][0]
        question, reply = ADHOC[lesson['n'] // 2 % len(ADHOC)]
        values = {'c': concept[0], 'o': other, 'd': concept[1], 'p': topic[3], 'a': topic[4]}
        self.ok('adhoc_learner_send', pair_id=self.pair, text=question.format(**values))
        self.ok('adhoc_message_send', pair_id=self.pair, text=reply.format(**values),
                is_learning_related=lesson['n'] % 4 == 0)
        self.ok('adhoc_ack', pair_id=self.pair)

    def review(self, day: int, review_days: list[int]) -> None:
        """Today's reviews: her share of what is left, the cards most due first."""
        if not self.cards:
            return
        left_days = len(review_days) - review_days.index(day)
        count = min(len(self.cards), -(-self.reviews_left // left_days))
        picked = [heapq.heappop(self.cards) for _ in range(count)]
        for _, card in picked:
            rating = self.rng.choices([r for r, _ in RATINGS], [w for _, w in RATINGS])[0]
            reviewed = self.ok('review_flashcard', pair_id=self.pair, flashcard_id=card,
                               rating=rating)
            heapq.heappush(self.cards, (reviewed['due_at'], card))
        self.reviews_left -= count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--learners', type=int, default=10)
    parser.add_argument('--path', required=True)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--workers', type=int, default=1, help='processes building shards')
    parser.add_argument('--every', type=int, default=10, help='print progress every N learners')
    args = parser.parse_args()
    last = [0.0, time.process_time()]

    def progress(done: int, seconds: float) -> None:
        if done % args.every == 0:
            cpu = time.process_time()
            print(f'{done:6d} learners (first shard) {seconds:8.1f} s  last {args.every}: '
                  f'{(seconds - last[0]) / args.every:.3f} s/learner wall, '
                  f'{(cpu - last[1]) / args.every:.3f} s CPU', flush=True)
            last[:] = [seconds, cpu]

    school = build(args.path, args.learners, args.seed, args.workers, progress)
    print(f'{len(school.learners)} learners, {school.calls} tool calls '
          f'({school.calls / len(school.learners):.0f} per learner), {school.seconds:.1f} s '
          f'({school.seconds / len(school.learners):.3f} s per learner), '
          f'{school.size_bytes / 1e6:.1f} MB; merging the shards {school.merge_seconds:.1f} s')
    tenth = max(1, len(school.learners) // 10)
    print('per learner, by tenth of the build (learner index order; with workers, each shard '
          'has its own store):')
    for k in range(0, len(school.learners), tenth):
        part = school.learners[k:k + tenth]
        print(f'  learners {k:5d}-{k + len(part) - 1:5d}: '
              f'{sum(p.seconds for p in part) / len(part):.3f} s wall, '
              f'{sum(p.cpu_seconds for p in part) / len(part):.3f} s CPU')
    for tool, count in sorted(school.calls_by_tool.items(), key=lambda item: -item[1]):
        print(f'  {tool:32s} {count / len(school.learners):8.1f} per learner')


if __name__ == '__main__':
    main()
