"""The program under test: every kind of pulumi_platform, as a Python team writes it."""

import os
from typing import Dict

import pulumi
import pulumi_platform as platform

HERE = os.path.dirname(os.path.abspath(__file__))


def _read(name: str) -> str:
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return f.read()


def build(app: str = "demo-app", size_gb: int = 3, hostname: str = "www.example.com") -> Dict[str, pulumi.CustomResource]:
    """Declares a volume, its snapshot, a volume restored from it, two certificates and a rotation."""
    data = platform.Volume("data", app=app, name="data", region="iad", size_gb=size_gb)
    nightly = platform.VolumeSnapshot("nightly", app=app, volume_id=data.volume_id)
    restored = platform.Volume(
        "restored", app=app, name="restored", region="iad", snapshot_id=nightly.snapshot_id
    )
    www = platform.AcmeCertificate("www", app=app, hostname=hostname)
    shop = platform.CustomCertificate(
        "shop",
        app=app,
        hostname="shop.example.com",
        fullchain=_read("shop.crt.pem"),
        private_key=pulumi.Output.secret(_read("shop.key.pem")),
    )
    db = platform.PostgresPasswordRotation(
        "db", cluster_id="pg-main", username="app_user", alternate_username="app_user_b"
    )
    return {"data": data, "nightly": nightly, "restored": restored, "www": www, "shop": shop, "db": db}
