"""Runs the quickstart (program.py) as an Automation API inline program: no Python language host.

    python automation.py [--stack dev] [--work-dir DIR] COMMAND

COMMAND is one of ``preview [--expect-no-changes]``, ``up``, ``refresh [--expect-no-changes]``,
``destroy``, ``set-config [--secret] KEY VALUE``. One JSON object is printed on stdout:
``{"ok": true, "command", "changes", "outputs"}`` (each output as ``{"value", "secret": false}``,
a secret one as ``{"secret": true}`` without its value), or ``{"ok": false, "command", "error"}``
with exit status 1. The engine's progress goes to stderr.

This process serves the program to the CLI (``pulumi`` on PATH, or ``PULUMI_PLATFORM_CLI_DIR``
naming the directory that holds it); the CLI starts the plugin ``pulumi-resource-platform`` from
this checkout's root (``plugins.providers`` of the work directory's Pulumi.yaml). The backend, the
passphrase and ``PULUMI_HOME`` come from the environment (``PULUMI_BACKEND_URL``,
``PULUMI_CONFIG_PASSPHRASE``, ``PULUMI_HOME``), as for the CLI. The stack's settings file
(``Pulumi.<stack>.yaml``, the config) is kept in the work directory: this example's directory by
default; another one gets a Pulumi.yaml naming the plugin by its absolute path.
"""

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn, Optional

from pulumi import automation as auto

from program import quickstart

PROJECT = "python-quickstart"
HERE = Path(__file__).resolve().parent
# The checkout's root holds the executable `pulumi-resource-platform` (docs/plugin.md).
PLUGIN_DIR = HERE.parent.parent


def log(text: str) -> None:
    """The engine's output, on stderr (stdout carries the one JSON result)."""
    print(text, file=sys.stderr, flush=True)


def work_dir(given: Optional[str]) -> str:
    """The work directory, with a Pulumi.yaml naming the plugin (this example's own, by default)."""
    if given is None or Path(given).resolve() == HERE:
        return str(HERE)
    directory = Path(given).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "Pulumi.yaml").write_text(
        f"name: {PROJECT}\n"
        "runtime: python\n"
        "plugins:\n"
        "  providers:\n"
        "    - name: platform\n"
        f"      path: {json.dumps(str(PLUGIN_DIR))}\n",
        encoding="utf-8",
    )
    return str(directory)


def pulumi_command() -> Optional[auto.PulumiCommand]:
    """The CLI in PULUMI_PLATFORM_CLI_DIR (a `bin` directory), or None for `pulumi` on PATH."""
    cli_dir = os.environ.get("PULUMI_PLATFORM_CLI_DIR")
    if not cli_dir:
        return None
    root = Path(cli_dir)
    if root.name != "bin":
        raise SystemExit(f"PULUMI_PLATFORM_CLI_DIR must name the CLI's bin directory: {cli_dir}")
    return auto.PulumiCommand(root=str(root.parent), skip_version_check=True)


def select_stack(stack_name: str, directory: str) -> auto.Stack:
    """Creates the stack or selects it, with quickstart() as its inline program."""
    return auto.create_or_select_stack(
        stack_name=stack_name,
        project_name=PROJECT,
        program=quickstart,
        opts=auto.LocalWorkspaceOptions(work_dir=directory, pulumi_command=pulumi_command()),
    )


def outputs_json(outputs: auto.OutputMap) -> dict[str, dict[str, Any]]:
    """The stack's outputs with their secret flags; a secret's value is left out."""
    return {
        key: {"secret": True} if out.secret else {"value": out.value, "secret": False}
        for key, out in outputs.items()
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Runs the command; the JSON result's members besides `ok` and `command`."""
    stack = select_stack(args.stack, work_dir(args.work_dir))
    command: str = args.command
    if command == "set-config":
        stack.set_config(args.key, auto.ConfigValue(value=args.value, secret=args.secret))
        return {}
    if command == "preview":
        preview = stack.preview(on_output=log, expect_no_changes=args.expect_no_changes or None)
        # Typed as OpType (a str enum) keys; they arrive as plain strings.
        changes = {str(getattr(op, "value", op)): count for op, count in preview.change_summary.items()}
        return {"changes": changes}
    if command == "up":
        up = stack.up(on_output=log)
        return {"changes": dict(up.summary.resource_changes or {}), "outputs": outputs_json(up.outputs)}
    if command == "refresh":
        refresh = stack.refresh(on_output=log, expect_no_changes=args.expect_no_changes or None)
        return {
            "changes": dict(refresh.summary.resource_changes or {}),
            "outputs": outputs_json(stack.outputs()),
        }
    if command == "destroy":
        destroy = stack.destroy(on_output=log)
        return {"changes": dict(destroy.summary.resource_changes or {})}
    raise ValueError(f"unknown command {command!r}")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(description="The Python quickstart through the Automation API.")
    top.add_argument("--stack", default="dev", help="stack name (default dev)")
    top.add_argument("--work-dir", help="where the stack's settings are kept (default: this directory)")
    commands = top.add_subparsers(dest="command", required=True)
    for name in ("preview", "refresh"):
        sub = commands.add_parser(name)
        sub.add_argument("--expect-no-changes", action="store_true", help="fail on any change")
    commands.add_parser("up")
    commands.add_parser("destroy")
    config = commands.add_parser("set-config")
    config.add_argument("--secret", action="store_true", help="store the value encrypted")
    config.add_argument("key")
    config.add_argument("value")
    return top


def main() -> NoReturn:
    args = parser().parse_args()
    try:
        result: dict[str, Any] = {"ok": True, "command": args.command, **run(args)}
        status = 0
    except Exception as err:  # noqa: BLE001 - every failure becomes the JSON result
        result = {"ok": False, "command": args.command, "error": str(err)}
        status = 1
    print(json.dumps(result), flush=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
