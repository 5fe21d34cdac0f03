import pulumi
import pulumi_platform as platform

data = platform.Volume("data", app="demo-app", name="data", region="iad", size_gb=10)

pulumi.export("volumeId", data.volume_id)
