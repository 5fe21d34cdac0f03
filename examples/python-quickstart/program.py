"""The quickstart in Python, on the SDK generated from the plugin's schema (sdk-gen/python).

A volume, an on-demand snapshot of it and a volume restored from that snapshot, a wildcard ACME
certificate and an alternating Postgres password rotation, in one function. Each output feeds the
next input as it is (``volume_id`` and ``snapshot_id`` are ``pulumi.Output[str]``): no cast.

``__main__.py`` runs it as a ``runtime: python`` program (an official Pulumi CLI), ``automation.py``
as an Automation API inline program. Type-checked with ``mypy --strict`` and run through the engine
against the emulator by test/e2e/python-quickstart.test.ts.
"""

import pulumi
import pulumi_platform as platform


def quickstart() -> None:
    """Declares the resources and exports their outputs (the password as a secret)."""
    config = pulumi.Config()
    app = config.get("app") or "demo-app"
    region = config.get("region") or "iad"
    # The data volume's size: raise it and `up` grows the volume in place; lower it and `preview`
    # rejects it (volumes only grow), naming sizeGb.
    size_gb = config.get_int("sizeGb") or 3
    domain = config.get("domain") or "py.example.com"

    data = platform.Volume(
        "data",
        app=app,
        name="data",
        region=region,
        size_gb=size_gb,
        snapshot_retention=7,
    )
    # Change snapshotRun to take the snapshot again.
    snapshot = platform.VolumeSnapshot(
        "data-snapshot",
        app=app,
        volume_id=data.volume_id,
        triggers={"run": config.get("snapshotRun") or "1"},
    )
    # replace_with: restored again from the new snapshot whenever the snapshot is taken again.
    restored = platform.Volume(
        "restored",
        app=app,
        name="data_restored",
        region=region,
        snapshot_id=snapshot.snapshot_id,
        opts=pulumi.ResourceOptions(replace_with=[snapshot]),
    )

    # A wildcard certificate: active once the DNS records of its outputs exist.
    wildcard = platform.AcmeCertificate("wildcard", app=app, hostname=f"*.{domain}")

    # Rotations alternate between two users of the emulator's seed cluster: the credential apps
    # hold stays valid until the next rotation. Change `rotation` to rotate again.
    rotation = platform.PostgresPasswordRotation(
        "app-user-password",
        cluster_id=config.get("postgresCluster") or "demo-pg",
        username=config.get("postgresUser") or "app_user",
        alternate_username=config.get("postgresAlternateUser") or "app_user_b",
        triggers={"rotation": config.get("rotation") or "initial"},
    )

    volume_id: pulumi.Output[str] = data.volume_id
    pulumi.export("app", data.app)
    pulumi.export("volumeId", volume_id)
    pulumi.export("sizeGb", data.size_gb)
    pulumi.export("snapshotId", snapshot.snapshot_id)
    # A lookup answers its fields: get_volume(...).name, as the platform reports the volume.
    looked = platform.get_volume_output(app=data.app, volume_id=data.volume_id)
    pulumi.export("lookedUpName", looked.apply(lambda v: v.name))
    pulumi.export("restoredVolumeId", restored.volume_id)
    pulumi.export("restoredFrom", restored.snapshot_id)
    pulumi.export("restoredState", restored.state)
    pulumi.export("certificateHostname", wildcard.hostname)
    pulumi.export("certificateStatus", wildcard.status)
    # The CNAME to create at the DNS provider (wildcards are validated through DNS only).
    pulumi.export(
        "acmeChallenge",
        wildcard.acme_challenge_record.apply(lambda r: f"{r.name} {r.type} {r.value}"),
    )
    pulumi.export("postgresUsername", rotation.username)
    # A secret: `pulumi stack output postgresPassword --show-secrets` prints it.
    pulumi.export("postgresPassword", rotation.password)
