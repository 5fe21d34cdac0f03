"""Pulumi mocks for unit tests of a program that uses pulumi_platform.

Each of the package's resources is checked as ``pulumi preview`` checks it, and gets the outputs
a create at the platform would give (ids in the platform's shapes, states, a certificate's DNS
requirements, a secret password). Both come from the provider plugin itself
(``pulumi-resource-platform``, the same checks and mocks as the TypeScript
``pulumi-platform/testing``), which the mocks start once and stop at exit; the platform is never
called. Every other resource and call goes to ``others``.

    mocks = PlatformMocks()
    pulumi.runtime.set_mocks(mocks, preview=False)
    import program  # builds the resources

The plugin is found, in this order: the ``PULUMI_PLATFORM_PLUGIN`` environment variable (a path),
``pulumi-resource-platform`` on ``PATH``, then the plugin installed by ``pulumi plugin install``
at this SDK's version under ``$PULUMI_HOME/plugins`` (default ``~/.pulumi``).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import threading
from datetime import datetime
from typing import Any, Callable, List, Literal, Optional, Tuple

import grpc  # type: ignore[import-untyped, unused-ignore]
import pulumi
# google.protobuf ships no hints (types-protobuf has them): ignored either way.
from google.protobuf import json_format, struct_pb2  # type: ignore[import-untyped, unused-ignore]
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

__all__ = ["PlatformMocks", "PlatformCheckError", "find_plugin"]

_MOCK_FUNCTION = "platform:testing:mock"
_PACKAGE = "platform:"
_PLUGIN = "pulumi-resource-platform"


class PlatformCheckError(Exception):
    """A resource's inputs break a rule: the lines ``pulumi preview`` prints, one per failure."""

    def __init__(self, failures: List[str]) -> None:
        super().__init__("\n".join(failures))
        self.failures = failures


def _sdk_version() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "pulumi-plugin.json"), encoding="utf-8") as f:
        version = json.load(f).get("version", "")
    return str(version)


def find_plugin() -> str:
    """The path of ``pulumi-resource-platform`` the mocks start (see the module's text)."""
    named = os.environ.get("PULUMI_PLATFORM_PLUGIN")
    if named:
        return named
    on_path = shutil.which(_PLUGIN)
    if on_path:
        return on_path
    home = os.environ.get("PULUMI_HOME") or os.path.join(os.path.expanduser("~"), ".pulumi")
    installed = os.path.join(home, "plugins", f"resource-platform-v{_sdk_version()}", _PLUGIN)
    if os.access(installed, os.X_OK):
        return installed
    raise RuntimeError(
        f"pulumi_platform.testing: no {_PLUGIN}: set PULUMI_PLATFORM_PLUGIN to its path, put it on "
        f"PATH, or install it (pulumi plugin install resource platform {_sdk_version()} --file <archive>)"
    )


class _Plugin:
    """The plugin's process and a client of its gRPC service."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        port = self.process.stdout.readline().strip()
        if not port.isdigit():
            self.process.kill()
            raise RuntimeError(f"pulumi_platform.testing: {path} printed no port (got {port!r})")
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        self.stub = provider_pb2_grpc.ResourceProviderStub(self.channel)
        atexit.register(self.close)

    def mock(self, question: dict[str, Any]) -> dict[str, Any]:
        args = struct_pb2.Struct()
        args.update(question)
        answer = self.stub.Invoke(provider_pb2.InvokeRequest(tok=_MOCK_FUNCTION, args=args))
        result: dict[str, Any] = json_format.MessageToDict(getattr(answer, "return"))
        return result

    def close(self) -> None:
        self.channel.close()
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


_SIG_KEY = "4dabf18193072939515e22adb298388d"
_SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270"


def _secret(value: Any) -> dict[str, Any]:
    return {_SIG_KEY: _SECRET_SIG, "value": value}


class PlatformMocks(pulumi.runtime.Mocks):
    """Mocks for ``pulumi.runtime.set_mocks``: the package's resources checked as at preview, with
    realistic outputs; everything else goes to ``others``.

    :param others: mocks for every resource and call that is not this package's; by default a
        resource's state is its inputs and its id ``<name>_id``, and a call returns its inputs.
    :param now: the time the platform answers at (a rotation's ``rotatedAt``, a certificate's
        ``expiresInDays``); default: now.
    :param region: region of a volume that names none; default ``iad``.
    :param org: organization in a hostname's ownership TXT value; default ``personal``.
    :param on_check_failure: ``"raise"`` (default): a resource whose inputs break a rule fails its
        registration with a :class:`PlatformCheckError`, the lines ``pulumi preview`` prints, and
        the test fails with it; ``"record"``: it is registered with its inputs as outputs. Either
        way the lines are added to :attr:`check_failures`.
    :param plugin: the plugin's path; default: :func:`find_plugin`.
    """

    def __init__(
        self,
        others: Optional[pulumi.runtime.Mocks] = None,
        *,
        now: Optional[Callable[[], datetime]] = None,
        region: Optional[str] = None,
        org: Optional[str] = None,
        on_check_failure: Literal["raise", "record"] = "raise",
        plugin: Optional[str] = None,
    ) -> None:
        self.others = others
        self.now = now
        self.region = region
        self.org = org
        self.on_check_failure = on_check_failure
        self.check_failures: List[str] = []
        self._plugin_path = plugin
        self._plugin: Optional[_Plugin] = None
        self._lock = threading.Lock()

    def _client(self) -> _Plugin:
        with self._lock:
            if self._plugin is None:
                self._plugin = _Plugin(self._plugin_path or find_plugin())
            return self._plugin

    def close(self) -> None:
        """Stops the plugin (done at exit otherwise)."""
        with self._lock:
            if self._plugin is not None:
                self._plugin.close()
                self._plugin = None

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> Tuple[Optional[str], dict[str, Any]]:
        if not args.typ.startswith(_PACKAGE) or not args.custom:
            if self.others is not None:
                return self.others.new_resource(args)
            return (args.resource_id or f"{args.name}_id", args.inputs)
        question: dict[str, Any] = {"type": args.typ, "name": args.name, "inputs": args.inputs}
        if self.now is not None:
            question["now"] = self.now().isoformat()
        if self.region is not None:
            question["region"] = self.region
        if self.org is not None:
            question["org"] = self.org
        answer = self._client().mock(question)
        failures = [str(line) for line in answer.get("failures", [])]
        if failures:
            self.check_failures.extend(failures)
            if self.on_check_failure == "record":
                return (f"{args.name}_id", args.inputs)
            raise PlatformCheckError(failures)
        state: dict[str, Any] = dict(answer.get("state", {}))
        for name in answer.get("secrets", []):
            if name in state:
                state[name] = _secret(state[name])
        return (str(answer["id"]), state)

    def call(self, args: pulumi.runtime.MockCallArgs) -> Tuple[dict[str, Any], Optional[List[Tuple[str, str]]]]:
        if self.others is not None:
            return self.others.call(args)
        return (args.args, None)
