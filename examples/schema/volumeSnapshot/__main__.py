import pulumi
import pulumi_platform as platform

data = platform.Volume("data", app="demo-app", name="data", region="iad")
snapshot = platform.VolumeSnapshot("data-snapshot", app="demo-app", volume_id=data.volume_id)

pulumi.export("snapshotId", snapshot.snapshot_id)
