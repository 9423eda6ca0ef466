"""Managed (lifecycle) nodes that start themselves, as Nav2's lifecycle manager would.

Every node of the package is a ``ManagedNode``: ``configure()`` (written by
each node) loads its data, opens its store and creates its publishers,
subscriptions, services, clients and timers; *activate* opens the door to
input (``active``: a guarded callback of an inactive node refuses, and says
so); *deactivate* closes it; *cleanup* undoes everything ``configure()``
created, in reverse, so a later *configure* starts afresh (read-only
parameters keep their values). With ``autostart`` (a parameter, on by
default) the node configures and activates itself at construction, so
``ros2 run`` and the launch files just work; with ``autostart:=false`` a
lifecycle manager (``ros2 lifecycle set``, nav2_lifecycle_manager) drives it.

A ``configure()`` that raises fails the transition (the node stays
unconfigured, the reason logged); at autostart, the error is raised again so
the executable stops with status 1 and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn

from robot_skills.runtime.params import Settings, setting

SUCCESS, FAILURE = TransitionCallbackReturn.SUCCESS, TransitionCallbackReturn.FAILURE


@dataclass(frozen=True)
class LifecycleSettings:
    """The parameter every node shares as a lifecycle node."""

    autostart: bool = setting(True, 'Configure and activate at start (false: wait for a '
                              'lifecycle manager)', read_only=True)


class ManagedNode(LifecycleNode):
    """A lifecycle node whose ``configure()`` is undone by *cleanup* (see the module doc)."""

    def __init__(self, node_name: str, **kwargs: Any) -> None:
        self._undo: list[Callable[[], object]] = []
        self._recording = False
        self._failure: BaseException | None = None
        self.configure_failure = ''          # why the last configure failed ('' if it did not)
        super().__init__(node_name, **kwargs)
        self.autostart = Settings(self, LifecycleSettings).value.autostart

    # ---- what each node writes -----------------------------------------------------------

    def configure(self) -> None:
        """Load data, open stores, create entities (everything *cleanup* must undo)."""

    @property
    def state(self) -> str:
        """The lifecycle state's label: unconfigured, inactive, active, finalized ..."""
        return self._state_machine.current_state[1]

    @property
    def active(self) -> bool:
        return self.state == 'active'

    def start(self) -> None:
        """*configure* then *activate* (autostart); a configure error is raised again."""
        if self.trigger_configure() != SUCCESS:
            failure, self._failure = self._failure, None
            raise failure or RuntimeError(f'{self.get_name()}: configure failed')
        self.trigger_activate()

    def own(self, undo: Callable[[], object]) -> None:
        """Run ``undo`` at *cleanup* when registered during ``configure()``."""
        if self._recording:
            self._undo.append(undo)

    # ---- transitions -------------------------------------------------------------------------

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._recording = True
        try:
            self.configure()
        except Exception as error:  # noqa: BLE001 - a failed transition, reported by start()
            self._failure = error
            self.configure_failure = f'configure failed: {type(error).__name__}: {error}'
            self.get_logger().error(self.configure_failure)
            self._teardown()
            return FAILURE
        finally:
            self._recording = False
        self.configure_failure = ''
        return SUCCESS

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._teardown()
        return SUCCESS

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._teardown()
        return SUCCESS

    def on_error(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._teardown()
        return SUCCESS

    def _teardown(self) -> None:
        while self._undo:
            self._undo.pop()()

    def destroy_node(self) -> None:
        self._teardown()
        super().destroy_node()

    # ---- everything configure() creates is owned ----------------------------------------------

    def create_publisher(self, *args: Any, **kwargs: Any) -> Any:
        entity = super().create_publisher(*args, **kwargs)
        self.own(lambda: self.destroy_publisher(entity))
        return entity

    def create_subscription(self, *args: Any, **kwargs: Any) -> Any:
        entity = super().create_subscription(*args, **kwargs)
        self.own(lambda: self.destroy_subscription(entity))
        return entity

    def create_service(self, *args: Any, **kwargs: Any) -> Any:
        entity = super().create_service(*args, **kwargs)
        self.own(lambda: self.destroy_service(entity))
        return entity

    def create_client(self, *args: Any, **kwargs: Any) -> Any:
        entity: Any = super().create_client(*args, **kwargs)
        self.own(lambda: self.destroy_client(entity))
        return entity

    def create_timer(self, *args: Any, **kwargs: Any) -> Any:
        entity = super().create_timer(*args, **kwargs)
        self.own(lambda: self.destroy_timer(entity))
        return entity

    def create_guard_condition(self, *args: Any, **kwargs: Any) -> Any:
        entity = super().create_guard_condition(*args, **kwargs)
        self.own(lambda: self.destroy_guard_condition(entity))
        return entity

    def add_waitable(self, waitable: Any) -> None:
        """Action clients and servers add themselves here."""
        super().add_waitable(waitable)
        self.own(waitable.destroy)

    def add_on_set_parameters_callback(self, callback: Any) -> None:
        super().add_on_set_parameters_callback(callback)
        self.own(lambda: self.remove_on_set_parameters_callback(callback))

    def add_post_set_parameters_callback(self, callback: Any) -> None:
        super().add_post_set_parameters_callback(callback)
        self.own(lambda: self.remove_post_set_parameters_callback(callback))
