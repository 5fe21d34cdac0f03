"""Unit tests of program.py under pulumi_platform.testing's mocks: no engine, no platform.

Run: ``python -m unittest`` in this directory (the plugin found as pulumi_platform.testing says).
"""

import unittest
from datetime import datetime, timezone
from typing import Any, Callable, Dict, List

import pulumi
from pulumi_platform.testing import PlatformCheckError, PlatformMocks

# The certificate beside this file is valid from 2026-11-29 for ten years.
NOW = datetime(2027, 6, 1, tzinfo=timezone.utc)

mocks = PlatformMocks(now=lambda: NOW)
pulumi.runtime.set_mocks(mocks, preview=False)

import program  # noqa: E402  (after set_mocks: the resources register with the mocks)

# Pulumi's decorator that runs a test's program and waits for its outputs, with its type spelled out.
run_program: Callable[[Callable[..., pulumi.Output[Any]]], Callable[..., None]] = pulumi.runtime.test


def outputs_of(resource: pulumi.CustomResource) -> Dict[str, pulumi.Output[Any]]:
    """Every output property the SDK class declares."""
    return {
        name: getattr(resource, name)
        for name, declared in vars(type(resource)).items()
        if isinstance(declared, property)
    }


class PlatformMocksTest(unittest.TestCase):
    @run_program
    def test_every_output_of_every_kind_resolves_realistically(self) -> pulumi.Output[None]:
        resources = program.build()
        everything: Dict[str, pulumi.Output[Any]] = {}
        for key, resource in resources.items():
            for name, output in outputs_of(resource).items():
                everything[f"{key}.{name}"] = output

        def check(values: Dict[str, Any]) -> None:
            self.assertGreater(len(values), 60)
            self.assertTrue(str(values["data.volume_id"]).startswith("vol_"))
            self.assertEqual(values["data.size_gb"], 3)
            self.assertEqual(values["data.state"], "created")
            self.assertEqual(values["restored.snapshot_id"], values["nightly.snapshot_id"])
            self.assertEqual(values["www.hostname"], "www.example.com")
            self.assertEqual(values["shop.issuer"], "shop.example.com")
            self.assertEqual(values["db.username"], "app_user")
            self.assertGreaterEqual(len(str(values["db.password"])), 16)

        return pulumi.Output.all(**everything).apply(check)

    @run_program
    def test_the_password_stays_secret(self) -> pulumi.Output[None]:
        db = program.build(app="secret-app")["db"]
        password: pulumi.Output[Any] = getattr(db, "password")

        def check(secret: bool) -> None:
            self.assertTrue(secret)

        secret: pulumi.Output[bool] = pulumi.Output.from_input(True).apply(lambda _: password.is_secret())
        return secret.apply(check)


class RefusedAtPreviewTest(unittest.TestCase):
    def refused(self, **kwargs: Any) -> List[str]:
        """The lines a run of the program with `kwargs` fails with, as preview prints them."""
        before = len(mocks.check_failures)

        def whole_program() -> pulumi.Output[Any]:
            resources = program.build(**kwargs)
            return pulumi.Output.all(*[r.urn for r in resources.values()])

        with self.assertRaises(PlatformCheckError):
            run_program(whole_program)()
        return mocks.check_failures[before:]

    def test_a_negative_size_fails_with_previews_message(self) -> None:
        failures = self.refused(app="bad-size", size_gb=-1)
        self.assertTrue(any("platform:index:Volume resource 'data': property sizeGb value {-1}" in f for f in failures), failures)

    def test_a_bad_hostname_fails_with_previews_message(self) -> None:
        failures = self.refused(app="bad-host", hostname="not a hostname")
        self.assertTrue(any("platform:index:AcmeCertificate resource 'www': property hostname" in f for f in failures), failures)


if __name__ == "__main__":
    unittest.main()
