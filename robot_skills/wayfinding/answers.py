"""What the robot says, writes and shows for a resolution, with the document's phrases.

* a place on another floor: "{spoken_name}在{楼层}，请先前往{楼层}。{route}。",
  speech only;
* a place on the robot's floor (or a public area asked without a floor):
  "{spoken_name}在{route}。", then one welcome gesture towards its direction
  (left | right; front and none show nothing);
* a group: every area in one answer (the document's fixed tea answers), never
  a gesture; a fixed answer, a question or an unknown place: speech only.

The text for a remote visitor carries the same content (spoken name, the
route verbatim, the floor prompt for other floors). Routes are inserted
verbatim; a route that already ends with "。" does not get a second one.
"""

from __future__ import annotations

from dataclasses import dataclass

from robot_skills.wayfinding.building import Building, Index, Place
from robot_skills.wayfinding.resolver import (
    Clarify,
    Fixed,
    Group,
    Query,
    Resolution,
    Route,
    Unknown,
)


@dataclass(frozen=True)
class Answer:
    kind: str                   # route | group | fixed | clarify | unknown | stop
    speech: str
    text: str
    gesture_side: str | None = None
    target: str = ''            # formal name(s), for traces
    spoken_name: str = ''
    pending: Query | None = None


def _sentence(text: str) -> str:
    return text.replace('。。', '。')


class Composer:
    def __init__(self, building: Building, index: Index) -> None:
        self.building = building
        self.index = index
        self.phrases = building.phrases
        self._groups = {g.key: g for g in building.combined}

    def answer(self, resolution: Resolution) -> Answer:
        if isinstance(resolution, Route):
            return self._route(resolution.place, resolution.spoken_name)
        if isinstance(resolution, Group):
            return self._group(resolution)
        if isinstance(resolution, Fixed):
            return Answer('fixed', resolution.text, resolution.text)
        if isinstance(resolution, Clarify):
            return Answer('clarify', resolution.question, resolution.question,
                          pending=resolution.query)
        assert isinstance(resolution, Unknown)
        said = self.phrases.unknown.format(spoken_name=resolution.spoken_name)
        return Answer('unknown', said, said, spoken_name=resolution.spoken_name)

    def stop(self) -> Answer:
        return Answer('stop', self.phrases.stop, self.phrases.stop)

    def _route(self, place: Place, spoken_name: str) -> Answer:
        if place.floor == self.building.home_floor:
            speech = self.phrases.home_floor.format(spoken_name=spoken_name, route=place.route)
            text = self.phrases.home_floor_text.format(spoken_name=spoken_name, route=place.route)
            side = place.gesture_side
        else:
            speech = text = self.phrases.other_floor.format(
                spoken_name=spoken_name, floor=self.building.floor_name(place.floor),
                route=place.route)
            side = None
        return Answer('route', _sentence(speech), _sentence(text), side, place.formal_name,
                      spoken_name)

    def _group(self, group: Group) -> Answer:
        spec = self._groups[group.key]
        places = [self.index.by_area(key, group.floor) for key in spec.areas]
        target = '、'.join(p.formal_name for p in places)
        if group.floor in spec.fixed:
            said = spec.fixed[group.floor]
            return Answer('group', said, said, None, target, spec.key)
        items = self.phrases.combined_separator.join(
            self.phrases.combined_item.format(spoken_name=p.spoken_name, route=p.route)
            for p in places)
        template = (self.phrases.combined_home_floor if group.floor == self.building.home_floor
                    else self.phrases.combined_other_floor)
        said = _sentence(template.format(floor=self.building.floor_name(group.floor),
                                         title=spec.title, items=items))
        return Answer('group', said, said, None, target, spec.title)
