"""From a visitor's words to one decision: a route, a group, a fixed answer, a question.

The order of the rules is the skill document's:

1. a room number (3-01, 3－01, 3 01, 五零三, 5杠03 ...) names its room; the 503
   family can only ever be 5-03B1112; a number with no room is unknown;
2. a floor with a place it does not have gets the document's fixed answer
   (三层库房 -> 三层没有库房，抱歉。);
3. a name (exact, else by sound) names its place; a public area without a floor
   is on the robot's floor, never asked; a name on several floors is asked
   about ("请问您要去几层的库房？"); a name that exists on one floor only wins
   over a wrong floor;
4. a group word (茶水间, 洽谈室, 打印机 ...) gets every area of the group; the
   tea areas are only ever answered together (前方茶水区 is a group word too);
5. 会议室 with a floor that has several meeting rooms, or a floor alone, is
   asked about ("请问您要去三层的哪个会议室？"); 会议室 alone too ("请问您要去几层，
   或者哪个会议室？");
6. a floor outside the building, or anything else that names a place (a few
   Chinese characters), is unknown; nothing usable (empty, emoji, a long
   sentence, only Latin letters) is asked about with the generic question.

A clarification leaves a ``Query`` behind; the next turn fills in what it
lacked (a floor, a name) and is resolved once more, without asking again
when it is now unique. Assumption where the document is silent: when one turn
names two different places, the first one named is answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from robot_skills.language.pinyin import PhoneticIndex
from robot_skills.wayfinding.building import Building, Index, Place
from robot_skills.wayfinding.text import (
    RoomNumber,
    floors_mentioned,
    normalise,
    room_numbers,
    strip_wake_word,
)

MAX_PLACE_CHARS = 15
HAS_HAN = re.compile(r'[\u4e00-\u9fff]')
NOT_WORD = re.compile(r'[^\w\u4e00-\u9fff]+')


@dataclass(frozen=True)
class Query:
    """What a turn asks for, merged with the clarification it answers."""

    floor: int | None = None
    other_floor: int | None = None       # a floor outside the building (七楼)
    number: RoomNumber | None = None
    name: str = ''                       # a place name or alias as configured
    group: str = ''                      # a combined group key (tea, talk, print)
    group_word: str = ''
    meeting_room: bool = False           # the generic 会议室
    phrase: str = ''                     # the words left once question words are gone
    unsayable: bool = False              # the turn contains a word never to be said

    @property
    def names_a_target(self) -> bool:
        return bool(self.number or self.name or self.group or self.meeting_room)

    def answering(self, pending: Query) -> Query:
        """The turn read as the answer to a clarification that asked ``pending``."""
        if self.names_a_target:
            return replace(self, floor=self.floor or pending.floor)
        return replace(pending, floor=self.floor or pending.floor,
                       other_floor=self.other_floor, phrase=self.phrase or pending.phrase)


@dataclass(frozen=True)
class Route:
    place: Place
    spoken_name: str


@dataclass(frozen=True)
class Group:
    key: str
    floor: int


@dataclass(frozen=True)
class Fixed:
    text: str


@dataclass(frozen=True)
class Clarify:
    question: str
    query: Query


@dataclass(frozen=True)
class Unknown:
    spoken_name: str


Resolution = Route | Group | Fixed | Clarify | Unknown


class Resolver:
    """The building's names, floors and rules, ready to read utterances."""

    def __init__(self, building: Building) -> None:
        self.building = building
        self.index: Index = building.index()
        self._floor_forms = sorted(((form, f.number) for f in building.floors for form in f.forms),
                                   key=lambda item: -len(item[0]))
        self._places_by_name: dict[str, list[Place]] = {}
        whole_only = {key for g in building.combined if not g.individual for key in g.areas}
        for place in self.index.places:
            if place.area_key in whole_only:
                continue
            names = [place.name, *place.aliases]
            if place.spoken_name != place.name:
                names.append(place.spoken_name)
            for name in names:
                if name != building.meeting_room_word:
                    self._places_by_name.setdefault(name, []).append(place)
        self._names = sorted(self._places_by_name, key=len, reverse=True)
        self._phonetic = PhoneticIndex(self._names)
        self._triggers = sorted(((t, g.key) for g in building.combined for t in g.triggers),
                                key=lambda item: -len(item[0]))
        self._absent = {(a.floor, a.name): a.answer for a in building.absent}
        self._public_floors = set(building.public_areas.floors)
        self._fillers = sorted(building.fillers, key=len, reverse=True)

    # ---- reading ----------------------------------------------------------------------

    def clean(self, text: str) -> str:
        return normalise(strip_wake_word(text, self.building.wake_word))

    def is_stop(self, text: str) -> bool:
        return any(phrase in text for phrase in self.building.stop_phrases)

    def read(self, text: str) -> Query:
        """The slots of one (cleaned) utterance."""
        rest = text
        numbers = room_numbers(rest)
        number = numbers[0] if numbers else None
        if number:
            rest = rest[:number.start] + ' ' + rest[number.end:]
        name, rest = self._take_name(rest)
        floor, other, rest = self._take_floor(rest)
        group, group_word = '', ''
        if not name:
            group, group_word = next(((key, t) for t, key in self._triggers if t in rest),
                                     ('', ''))
        word = self.building.meeting_room_word
        meeting_room = word in rest and not name
        phrase = self._phrase(text)
        unsayable = any(w in text for w in self.building.never_say)
        return Query(floor, other, number, name, group, group_word, meeting_room, phrase,
                     unsayable)

    def _take_name(self, text: str) -> tuple[str, str]:
        """The first-named configured name (exact, else by sound) and the text without it."""
        hits = [(text.find(n), n) for n in self._names if n in text]
        if hits:
            start, name = min(hits, key=lambda hit: (hit[0], -len(hit[1])))
            return name, text[:start] + ' ' + text[start + len(name):]
        heard = sorted(self._phonetic.find(text), key=lambda h: (h.start, h.start - h.end))
        if heard:
            return heard[0].name, text[:heard[0].start] + ' ' + text[heard[0].end:]
        return '', text

    def _take_floor(self, text: str) -> tuple[int | None, int | None, str]:
        for form, number in self._floor_forms:
            if form in text:
                return number, None, text.replace(form, ' ', 1)
        known = {f.number for f in self.building.floors}
        other = next((n for n, _, _ in floors_mentioned(text) if n not in known), None)
        return None, other, text

    def _phrase(self, text: str) -> str:
        for filler in self._fillers:
            text = text.replace(filler, ' ')
        return NOT_WORD.sub('', text)

    # ---- deciding ---------------------------------------------------------------------

    def resolve(self, query: Query) -> Resolution:
        b = self.building
        if query.number:
            return self._by_number(query)
        if query.floor is not None and (query.floor, query.name) in self._absent:
            return Fixed(self._absent[(query.floor, query.name)])
        if query.other_floor is not None and query.floor is None:
            return self._unknown(query)
        if query.name:
            return self._by_name(query)
        if query.group:
            if query.floor is None:
                return Group(query.group, b.home_floor)
            if query.floor in self._public_floors:
                return Group(query.group, query.floor)
            return Unknown(f'{b.floor_name(query.floor)}{query.group_word}')
        if query.meeting_room or query.floor is not None:
            return self._meeting_room(query)
        return self._unknown(query)

    def _by_number(self, query: Query) -> Resolution:
        assert query.number is not None
        place = self.index.by_number(query.number.number)
        if query.name and (place is None or place not in self._places_by_name[query.name]):
            return self._by_name(replace(query, number=None))   # the name wins
        if place is None:
            return Unknown(query.number.spoken)
        return Route(place, f'{query.number.spoken}{place.name}')

    def _by_name(self, query: Query) -> Resolution:
        b = self.building
        candidates = self._places_by_name[query.name]
        if query.floor is not None:
            on_floor = [p for p in candidates if p.floor == query.floor]
            if len(on_floor) == 1:
                return Route(on_floor[0], on_floor[0].spoken_name)
            if len(candidates) == 1:
                return Route(candidates[0], candidates[0].spoken_name)
            return Unknown(f'{b.floor_name(query.floor)}{candidates[0].spoken_name}')
        public = [p for p in candidates if p.kind == 'public' and p.floor == b.home_floor]
        if public:
            return Route(public[0], public[0].spoken_name)
        if len(candidates) == 1:
            return Route(candidates[0], candidates[0].spoken_name)
        name = candidates[0].spoken_name
        return Clarify(b.phrases.clarify_name.format(name=name), replace(query, floor=None))

    def _meeting_room(self, query: Query) -> Resolution:
        b = self.building
        if query.floor is None:
            return Clarify(b.phrases.clarify_any, Query(meeting_room=True))
        rooms = [p for p in self.index.places
                 if p.floor == query.floor and p.kind == 'meeting_room']
        if len(rooms) == 1 and query.meeting_room:
            return Route(rooms[0], rooms[0].spoken_name)
        floor = b.floor_name(query.floor)
        return Clarify(b.phrases.clarify_floor.format(floor=floor),
                       Query(floor=query.floor, meeting_room=True))

    def _unknown(self, query: Query) -> Resolution:
        if query.unsayable:
            return Unknown(self.building.phrases.unnamed_place)
        if query.phrase and len(query.phrase) <= MAX_PLACE_CHARS and HAS_HAN.search(query.phrase):
            return Unknown(query.phrase)
        return Clarify(self.building.phrases.clarify_any, Query(meeting_room=True))
