"""The program `pulumi up` runs with `runtime: python` (an official Pulumi CLI and its Python host)."""

from program import quickstart

quickstart()
