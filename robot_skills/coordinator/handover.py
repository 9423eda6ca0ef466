"""The cross-SKILL handover protocol (v2.1), as pydantic models and checks.

The document names ``schemas/handover-protocol.schema.json`` but does not ship
it; this module is built from what the document states (section 十): the
seven handoverTypes with their senders, recipients, payloads and consent bits,
and the fields every handover must carry (sessionId, protocolVersion,
handoverType, sender, recipient, consent with crossSkillSharing, payload,
timestamp). The SKILL names are the ones the document uses; where it only
describes a SKILL (the study planner, the weekly review, the teacher side) the
name here is an assumption, recorded in ``SKILLS``. The JSON Schema is
exported to ``config/schemas/handover-protocol.schema.json`` (``python -m
robot_skills.coordinator.handover``); consent rules that JSON Schema cannot say
(a bit that must be true for one type) are checked by ``check``. The
document's two examples are abbreviated ("完整示例见 …"): the fixtures in
``config/schemas/examples/`` are them with the required protocolVersion.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from robot_skills.model import wire
from robot_skills.model.strict import describe
from robot_skills.runtime import paths

PROTOCOL_VERSION = '2.1'
SUBJECT_ERROR_DNA = ('xiaozhi-math-error-dna', 'xiaozhi-physics-error-dna',
                     'xiaozhi-english-grammar-coach', 'xiaozhi-english-vocabulary-dna',
                     'xiaozhi-chinese-reading-decoder', 'xiaozhi-chinese-writing-coach',
                     'xiaozhi-chinese-grammar-tracker')
SKILLS = (
    'xiaozhi-skill-coordinator', 'xiaozhi-learning-dna', 'xiaozhi-correction-notebook',
    'xiaozhi-feynman-learning', 'xiaozhi-cornell-notes', 'xiaozhi-im-reminder',
    'xiaozhi-time-focus-coach', *SUBJECT_ERROR_DNA, 'xiaozhi-math-problem-solving-coach',
    'xiaozhi-physics-problem-coach', 'xiaozhi-cross-subject-detective',
    # named here by assumption (the document describes them without a slug):
    'xiaozhi-study-planner', 'xiaozhi-weekly-review', 'xiaozhi-teacher-console',
)
Skill = Literal[SKILLS]  # type: ignore[valid-type]
HandoverType = Literal['wrong_answer_handover', 'deep_analysis_writeback', 'profile_writeback',
                       'subject_profile_writeback', 'reminder_enqueue', 'reminder_sync',
                       'teacher_writeback']


class Model(BaseModel):
    model_config = ConfigDict(extra='forbid', frozen=True)


class Consent(Model):
    crossSkillSharing: bool
    verifiedAt: datetime | None = None
    emotionTrackingConsent: bool | None = None
    reminderConsent: bool | None = None
    teacherWritebackConsent: bool | None = None
    parentSharingConsent: bool | None = None
    emotionSharingWithParent: bool | None = None


class SurfaceInfo(Model):
    questionAbstract: str
    studentAnswer: str
    correctAnswer: str
    surfaceRootCause: str


class WrongAnswerData(Model):
    errorId: str
    subject: Literal['math', 'physics', 'english', 'chinese']
    concept: str = Field(min_length=1)
    handoverTrigger: Literal['stubborn_weakness', 'new_error', 'student_request',
                             'teacher_request']
    basicDimension: str = Field(min_length=1)
    occurrenceCountInWindow: int = Field(ge=0)
    surfaceInfo: SurfaceInfo


class DeepAnalysisData(Model):
    errorId: str
    rootCause: str = Field(min_length=1)
    errorPattern: str | None = None
    recommendation: str | None = None


class ProfileData(Model):
    updateTarget: Literal['general', 'emotion_dimension', 'subject_extension',
                          'extension']
    profilePatch: dict | None = None
    subjectExtensionPatch: dict | None = None
    extensionPatch: dict | None = None


class ReminderData(Model):
    reminderType: Literal['plan_task', 'explore_task', 'time_ledger_confirm']
    content: str = Field(min_length=1)
    status: Literal['queued', 'sent', 'acknowledged', 'completed', 'dismissed'] | None = None


class TeacherWritebackData(Model):
    teacherId: str = Field(min_length=1)
    note: str = Field(min_length=1)
    concept: str | None = None


class Payload(Model):
    wrongAnswerData: WrongAnswerData | None = None
    deepAnalysisData: DeepAnalysisData | None = None
    profileData: ProfileData | None = None
    reminderData: ReminderData | None = None
    teacherWritebackData: TeacherWritebackData | None = None


# handoverType -> (payload field, consent bit that must be true, senders, recipients)
RULES: dict[str, tuple[str, str, tuple[str, ...] | None, tuple[str, ...] | None]] = {
    'wrong_answer_handover': ('wrongAnswerData', 'crossSkillSharing',
                              ('xiaozhi-correction-notebook',), SUBJECT_ERROR_DNA),
    'deep_analysis_writeback': ('deepAnalysisData', 'crossSkillSharing', SUBJECT_ERROR_DNA,
                                ('xiaozhi-correction-notebook',)),
    'profile_writeback': ('profileData', 'crossSkillSharing', None, ('xiaozhi-learning-dna',)),
    'subject_profile_writeback': ('profileData', 'crossSkillSharing', None,
                                  ('xiaozhi-learning-dna',)),
    'reminder_enqueue': ('reminderData', 'reminderConsent', None, ('xiaozhi-im-reminder',)),
    'reminder_sync': ('reminderData', 'reminderConsent', ('xiaozhi-im-reminder',), None),
    'teacher_writeback': ('teacherWritebackData', 'teacherWritebackConsent',
                          ('xiaozhi-teacher-console',), ('xiaozhi-learning-dna',)),
}


class Handover(Model):
    """One handover between SKILLs (every field required by the protocol)."""

    sessionId: str = Field(min_length=1)
    protocolVersion: Literal['2.1']
    handoverType: HandoverType
    sender: Skill
    recipient: Skill
    consent: Consent
    payload: Payload
    timestamp: datetime

    @model_validator(mode='after')
    def _shape(self) -> Handover:
        field, _, senders, recipients = RULES[self.handoverType]
        present = [name for name, value in self.payload if value is not None]
        if present != [field]:
            raise ValueError(f'{self.handoverType} carries exactly payload.{field}, '
                             f'not {present or "nothing"}')
        if senders and self.sender not in senders:
            raise ValueError(f'{self.handoverType} is sent by {" or ".join(senders)}, '
                             f'not {self.sender}')
        if recipients and self.recipient not in recipients:
            raise ValueError(f'{self.handoverType} goes to {" or ".join(recipients)}, '
                             f'not {self.recipient}')
        profile = self.payload.profileData
        if self.handoverType == 'subject_profile_writeback' and profile and not (
                profile.subjectExtensionPatch or profile.extensionPatch):
            raise ValueError('subject_profile_writeback needs subjectExtensionPatch or '
                             'extensionPatch')
        return self


def consent_problems(handover: Handover) -> list[str]:
    """The consent bits the handover needs but does not have set to true."""
    _, bit, _, _ = RULES[handover.handoverType]
    needed = [bit]
    if handover.handoverType in ('profile_writeback', 'subject_profile_writeback'):
        needed = ['crossSkillSharing']
        profile = handover.payload.profileData
        if profile is not None and profile.updateTarget == 'emotion_dimension':
            needed.append('emotionTrackingConsent')
    return [f'consent.{name} must be true for {handover.handoverType}' for name in needed
            if getattr(handover.consent, name) is not True]


def check(raw: str, limits: wire.Limits = wire.LIMITS) -> tuple[Handover | None, list[str]]:
    """Parse (the wire parser: size, depth, numbers) and check a handover; (handover, []) when
    it may be written."""
    try:
        data = wire.json_value(raw, 'handover_json', limits)
        handover = Handover.model_validate(data)
    except wire.WireError as error:
        return None, [str(error)]
    except ValidationError as error:
        return None, describe(error)     # paths only: no values of the payload
    problems = consent_problems(handover)
    return (None, problems) if problems else (handover, [])


def schema() -> dict:
    return {'$schema': 'https://json-schema.org/draft/2020-12/schema',
            **Handover.model_json_schema(), 'title': f'handover protocol v{PROTOCOL_VERSION}'}


SCHEMA_FILE = 'schemas/handover-protocol.schema.json'


def main() -> None:
    """Write the JSON Schema to config/ (run after changing the models)."""
    paths.write_schema(SCHEMA_FILE, schema())


if __name__ == '__main__':
    main()
