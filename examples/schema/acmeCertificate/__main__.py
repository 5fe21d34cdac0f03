import pulumi
import pulumi_platform as platform

wildcard = platform.AcmeCertificate("wildcard", app="demo-app", hostname="*.example.com")

pulumi.export("status", wildcard.status)
