"""MkDocs hook: the reference pages that are generated, never written twice.

``reference/cli.md`` gets every subcommand's usage and options from the argparse
parser the command line runs (``chessplace.faces.cli.parser.build_parser``);
``reference/http-api.md`` gets every route and request body from the web app's
OpenAPI schema (``chessplace.faces.web.app.create_app().openapi()``). Each page
holds a marker comment that the generated text replaces at build time.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

CLI_MARKER = "<!-- generated: cli -->"
HTTP_MARKER = "<!-- generated: http -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the markers with the generated reference (MkDocs calls this per page)."""
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_markdown())
    if HTTP_MARKER in markdown:
        markdown = markdown.replace(HTTP_MARKER, http_markdown())
    return markdown


# --- the command line -------------------------------------------------------------


def _cell(text: str) -> str:
    """Text that fits in one cell of a Markdown table."""
    return " ".join(text.split()).replace("|", "\\|")


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """Each subcommand as (name, its one-line help, its parser), in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    takes_value = action.nargs != 0
    metavar = action.metavar or action.dest.upper()
    names = [f"{name} {metavar}" if takes_value else name for name in action.option_strings]
    return ", ".join(f"`{name}`" for name in names)


def _help(action: argparse.Action, groups: dict[int, list[str]]) -> str:
    text = action.help or ""
    if "%(" in text:
        text = text % {**vars(action), "prog": ""}
    notes = []
    if action.choices is not None and action.option_strings:
        notes.append("one of " + ", ".join(f"`{choice}`" for choice in action.choices))
    if action.required and action.option_strings:
        notes.append("required")
    default = action.default
    if (
        action.option_strings
        and default not in (None, False, [], argparse.SUPPRESS)
        and action.nargs != 0
    ):
        notes.append(f"default `{default}`")
    others = [flag for flag in groups.get(id(action), []) if flag not in action.option_strings]
    if others:
        notes.append("not with " + ", ".join(f"`{flag}`" for flag in others))
    if notes:
        text = f"{text} ({'; '.join(notes)})" if text else "; ".join(notes)
    return _cell(text)


def _exclusive(parser: argparse.ArgumentParser) -> dict[int, list[str]]:
    """For each option in a mutually exclusive group, the first flag of every member."""
    found: dict[int, list[str]] = {}
    for group in parser._mutually_exclusive_groups:
        flags = [action.option_strings[0] for action in group._group_actions]
        for action in group._group_actions:
            found[id(action)] = flags
    return found


def _usage(parser: argparse.ArgumentParser, width: int = 88) -> str:
    """The usage lines argparse prints, wrapped at ``width`` whatever the terminal."""
    formatter = argparse.HelpFormatter(parser.prog, width=width)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    lines = formatter.format_help().strip("\n").splitlines()
    prefix = "usage: "
    return "\n".join(
        line.removeprefix(prefix) if i == 0 else line[len(prefix) :] for i, line in enumerate(lines)
    )


def cli_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """Every subcommand of ``chessplace``: its usage, arguments and options."""
    if parser is None:
        from chessplace.faces.cli.parser import build_parser

        parser = build_parser()
    lines = ["| command | what it does |", "| --- | --- |"]
    commands = _subcommands(parser)
    lines += [f"| [`{name}`](#{name}) | {_cell(text)} |" for name, text, _ in commands]
    for name, text, sub in commands:
        usage = _usage(sub)
        lines += ["", f"## {name}", "", f"{text[:1].upper()}{text[1:]}." if text else ""]
        lines += ["", "```text", usage, "```"]
        groups = _exclusive(sub)
        actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
        positionals = [a for a in actions if not a.option_strings]
        options = [a for a in actions if a.option_strings]
        if positionals:
            lines += ["", "| argument | meaning |", "| --- | --- |"]
            lines += [f"| {_flags(a)} | {_help(a, groups)} |" for a in positionals]
        if options:
            lines += ["", "| option | meaning |", "| --- | --- |"]
            lines += [f"| {_flags(a)} | {_help(a, groups)} |" for a in options]
    return "\n".join(lines) + "\n"


# --- the HTTP API -----------------------------------------------------------------


def _type(schema: dict[str, Any]) -> str:
    """A JSON schema's type in a few words: ``integer ≥ 1 or null``."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in schema:
        return " or ".join(_type(part) for part in schema["anyOf"])
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}))}"
    limits = []
    if "minimum" in schema and abs(schema["minimum"]) < 1e15:
        limits.append(f"≥ {schema['minimum']:g}")
    if "exclusiveMinimum" in schema:
        limits.append(f"> {schema['exclusiveMinimum']:g}")
    if "maxLength" in schema:
        limits.append(f"at most {schema['maxLength']} characters")
    return f"{kind} {', '.join(limits)}".strip()


def _operation(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    lines = ["", f"### `{method.upper()} {path}`", ""]
    description = operation.get("description") or operation.get("summary", "")
    lines += [" ".join(description.split()).replace("``", "`"), ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | type | default |", "| --- | --- | --- | --- |"]
        for parameter in parameters:
            schema = parameter.get("schema", {})
            default = f"`{schema['default']}`" if "default" in schema else ""
            lines.append(
                f"| `{parameter['name']}` | {parameter['in']} | {_type(schema)} | {default} |"
            )
        lines.append("")
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        lines.append(f"Body: {_type(body['schema'])}.")
    # The schema's responses are FastAPI's defaults (JSON, 422), not what the routes
    # send (images, event streams, 400s): the page's prose says those.
    return lines


def _schema_section(name: str, schema: dict[str, Any]) -> list[str]:
    lines = ["", f"### {name}", ""]
    if schema.get("description"):
        lines += [" ".join(schema["description"].split()).replace("``", "`"), ""]
    required = set(schema.get("required", []))
    lines += ["| field | type | default |", "| --- | --- | --- |"]
    for field, spec in schema.get("properties", {}).items():
        default = "required" if field in required else f"`{json.dumps(spec.get('default'))}`"
        lines.append(f"| `{field}` | {_cell(_type(spec))} | {default} |")
    return lines


VALIDATION_SCHEMAS = {"HTTPValidationError", "ValidationError"}
"""FastAPI's own 422 bodies: the app answers a bad request with a 400 and one
``detail`` line instead, so these never reach a client."""


def http_markdown(schema: dict[str, Any] | None = None) -> str:
    """Every route of the web app and the request bodies they take."""
    if schema is None:
        from chessplace.faces.web.app import create_app

        schema = create_app().openapi()
    lines = ["## Routes"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            lines += _operation(path, method, operation)
    lines += ["", "## Request bodies"]
    for name, body in schema.get("components", {}).get("schemas", {}).items():
        if name not in VALIDATION_SCHEMAS:
            lines += _schema_section(name, body)
    return "\n".join(lines) + "\n"
