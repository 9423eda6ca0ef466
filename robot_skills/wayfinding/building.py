"""The building a wayfinding robot knows, as validated data (``config/wayfinding/*.yaml``).

The pydantic models check what the skill document requires of the data
itself, so a bad file stops the node before it can say a wrong route: routes
on floors other than the robot's start with the lift-exit phrase and the
robot's own floor never does, directions are left | right | front | none,
formal names are unique and end with the spoken name, floors exist, and no
text contains a name the robot must never say. ``Building.index()`` derives
the lookup tables the resolver uses (every place as a ``Place``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator, model_validator

from robot_skills.model.strict import Strict

Direction = Literal['left', 'right', 'front', 'none']
LIFT_EXIT = ('您出电梯后', '您出电梯之后')


class Floor(Strict):
    number: int
    name: str = Field(description='how the floor is spoken: 三层')
    forms: list[str] = Field(min_length=1, description='every way a visitor names it')


class Phrases(Strict):
    other_floor: str
    home_floor: str
    home_floor_text: str
    combined_other_floor: str
    combined_home_floor: str
    combined_item: str
    combined_separator: str
    unknown: str
    unnamed_place: str
    clarify_any: str
    clarify_floor: str
    clarify_name: str
    stop: str
    busy: str


class Location(Strict):
    formal_name: str
    name: str = Field(description='the name part, spoken when the visitor gave no number')
    number: str | None = Field(None, pattern=r'^\d-\d{2}$')
    floor: int
    kind: Literal['meeting_room', 'place']
    direction: Direction
    route: str = Field(min_length=1)
    aliases: list[str] = []

    @model_validator(mode='after')
    def _names_agree(self) -> Location:
        if not self.formal_name.endswith(self.name):
            raise ValueError(f'formal_name {self.formal_name!r} must end with name {self.name!r}')
        if self.number and not (self.formal_name.startswith(self.number)
                                and self.number.startswith(str(self.floor))):
            raise ValueError(f'number {self.number!r} must start the formal name and the floor')
        return self


class Area(Strict):
    key: str
    name: str
    spoken_name: str | None = None
    aliases: list[str] = []
    direction: Direction
    route: str = Field(min_length=1, description='base route, from the home floor position')

    @field_validator('route')
    @classmethod
    def _base(cls, route: str) -> str:
        if route.startswith(LIFT_EXIT):
            raise ValueError('a base route must not start with the lift-exit phrase')
        return route


class PublicAreas(Strict):
    floors: list[int] = Field(min_length=1)
    other_floor_prefix: str
    areas: list[Area] = Field(min_length=1)


class Combined(Strict):
    key: str
    triggers: list[str] = Field(min_length=1)
    areas: list[str] = Field(min_length=2)
    individual: bool = Field(True, description='whether one area of the group may be asked for')
    title: str = ''
    fixed: dict[int, str] = {}


class Absent(Strict):
    floor: int
    name: str
    answer: str


class Building(Strict):
    """The whole of a building file."""

    wake_word: str = Field(min_length=1)
    home_floor: int
    stop_phrases: list[str] = Field(min_length=1)
    never_say: list[str] = []
    meeting_room_word: str
    floors: list[Floor] = Field(min_length=1)
    phrases: Phrases
    fillers: list[str] = []
    locations: list[Location] = Field(min_length=1)
    public_areas: PublicAreas
    combined: list[Combined] = []
    absent: list[Absent] = []

    @model_validator(mode='after')
    def _consistent(self) -> Building:
        floors = {f.number for f in self.floors}
        problems = []
        if self.home_floor not in floors:
            problems.append(f'home_floor {self.home_floor} is not among the floors')
        names = [loc.formal_name for loc in self.locations]
        problems += [f'formal_name {n!r} appears twice' for n in set(names)
                     if names.count(n) > 1]
        for loc in self.locations:
            problems += _route_problems(loc.formal_name, loc.floor, loc.route, self.home_floor,
                                        floors)
        problems += [f'public_areas: floor {f} is not among the floors'
                     for f in self.public_areas.floors if f not in floors]
        keys = {a.key for a in self.public_areas.areas}
        for group in self.combined:
            problems += [f'combined {group.key}: unknown area {a!r}' for a in group.areas
                         if a not in keys]
            problems += [f'combined {group.key}: fixed answer for floor {f} which has no '
                         f'public areas' for f in group.fixed if f not in self.public_areas.floors]
            if not group.title and set(group.fixed) != set(self.public_areas.floors):
                problems.append(f'combined {group.key}: needs a title or a fixed answer '
                                f'for every public floor')
        problems += [f'absent: floor {a.floor} is not among the floors' for a in self.absent
                     if a.floor not in floors]
        for word in self.never_say:
            problems += [f'{where} contains {word!r}, which must never be said'
                         for where, text in self._texts() if word in text]
        if problems:
            raise ValueError('; '.join(problems))
        return self

    def _texts(self) -> list[tuple[str, str]]:
        texts = [(f'location {loc.formal_name!r}', f'{loc.name} {loc.route} {loc.aliases}')
                 for loc in self.locations]
        texts += [(f'public area {a.key!r}', f'{a.name} {a.spoken_name} {a.route}')
                  for a in self.public_areas.areas]
        texts += [(f'combined {c.key!r}', ' '.join(c.fixed.values())) for c in self.combined]
        texts += [('phrases', ' '.join(self.phrases.model_dump().values()))]
        return texts

    def floor_name(self, number: int) -> str:
        return next(f.name for f in self.floors if f.number == number)

    def index(self) -> Index:
        """Every place as a ``Place``, public areas expanded to each of their floors."""
        places = [Place(loc.formal_name, loc.name, loc.name, loc.number, loc.floor, loc.kind,
                        loc.direction, loc.route, tuple(loc.aliases)) for loc in self.locations]
        public = self.public_areas
        for floor in public.floors:
            prefix = '' if floor == self.home_floor else public.other_floor_prefix
            for area in public.areas:
                places.append(Place(f'{self.floor_name(floor)}{area.name}', area.name,
                                    area.spoken_name or area.name, None, floor, 'public',
                                    area.direction, prefix + area.route, tuple(area.aliases),
                                    area.key))
        return Index(tuple(places))


def _route_problems(name: str, floor: int, route: str, home: int, floors: set[int]) -> list[str]:
    if floor not in floors:
        return [f'location {name!r}: floor {floor} is not among the floors']
    if floor == home and route.startswith(LIFT_EXIT):
        return [f'location {name!r}: a route on the home floor must not start with 您出电梯后']
    if floor != home and not route.startswith(LIFT_EXIT):
        return [f'location {name!r}: a route on another floor must start with 您出电梯后']
    return []


@dataclass(frozen=True)
class Place:
    """One destination: a location, or a public area on one floor."""

    formal_name: str
    name: str
    spoken_name: str
    number: str | None
    floor: int
    kind: str                  # meeting_room | place | public
    direction: str
    route: str
    aliases: tuple[str, ...] = ()
    area_key: str = ''

    @property
    def gesture_side(self) -> str | None:
        return self.direction if self.direction in ('left', 'right') else None


@dataclass(frozen=True)
class Index:
    places: tuple[Place, ...]

    def by_area(self, key: str, floor: int) -> Place:
        return next(p for p in self.places if p.area_key == key and p.floor == floor)

    def by_number(self, number: str) -> Place | None:
        return next((p for p in self.places if p.number == number), None)
