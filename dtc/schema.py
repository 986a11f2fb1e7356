"""Schema check: a loaded `Document` in, its kind, schema diagnostics and valid part out.

The JSON Schemas (2020-12) in `schemas/` are the single description of every
document kind; editors use the same files for completion.  This module picks
the schema from the document's kind key, validates, and turns each jsonschema
error into a diagnostic at the YAML line and column of the offending value or
key, with a suggestion where one can be made.  When every error is inside an
item (one card, status effect, ability, minion: `ITEMS`), the document without
those items goes on to be checked, so one broken card hides no other's errors.

Validation runs twice only when it fails: jsonschema-rs answers "valid?" in
microseconds (every parsed effect is checked, so this is the hot path), and
jsonschema, whose errors carry the detail diagnostics need, explains failures.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from dtc.diagnostics import Diagnostic, error, sort_key
from dtc.loader import Document
from dtc.resources import data_dir

# document kind -> (key that names it, schema file)
KINDS: dict[str, str] = {
    "hero": "hero.schema.json",
    "card_set": "card.schema.json",
    "status_set": "status.schema.json",
    "ruleset": "ruleset.schema.json",
    "phrasebook": "phrasebook.schema.json",
    "lexicon": "lexicon.schema.json",
    "minion_set": "minion.schema.json",
    "adventure": "adventure.schema.json",
    "boss": "boss.schema.json",
    "loot_set": "loot.schema.json",
    "valeria_rules": "valeria-rules.schema.json",
    "valeria_sheet": "valeria-sheet.schema.json",
    "valeria_statues": "valeria-statues.schema.json",
    "valeria_events": "valeria-events.schema.json",
}
SCHEMA_FILES = [
    "common.schema.json",
    "hero.schema.json",
    "card.schema.json",
    "status.schema.json",
    "ruleset.schema.json",
    "phrasebook.schema.json",
    "lexicon.schema.json",
    "minion.schema.json",
    "adventure.schema.json",
    "boss.schema.json",
    "loot.schema.json",
    "effect.schema.json",
    "valeria.schema.json",
    "valeria-rules.schema.json",
    "valeria-sheet.schema.json",
    "valeria-statues.schema.json",
    "valeria-events.schema.json",
]


@cache
def _schemas() -> dict[str, dict]:
    folder = data_dir("schemas")
    return {name: json.loads((folder / name).read_text(encoding="utf-8")) for name in SCHEMA_FILES}


@cache
def _registry() -> Registry:
    resources = [
        (name, Resource.from_contents(body, default_specification=DRAFT202012))
        for name, body in _schemas().items()
    ]
    return Registry().with_resources(resources)


def _is_whole_number(checker, instance) -> bool:
    # JSON Schema counts 2.0 as an integer; the compiler and the engine do not (a `stack_limit: 2.0`
    # linted clean and failed in the artifact): a whole number is written without a point
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number))


@cache
def validator(schema_file: str) -> Draft202012Validator:
    """A validator for one schema file, with the others resolvable by file name."""
    return _Validator(_schemas()[schema_file], registry=_registry())


_BASE_URI = "file:///dtc/schemas/"


@cache
def fast_validator(schema_file: str):
    """A compiled jsonschema-rs validator for the same schema, or None without it."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - the dependency is declared; fall back politely
        return None
    registry = jsonschema_rs.Registry(
        resources=[(_BASE_URI + name, body) for name, body in _schemas().items()]
    )
    return jsonschema_rs.validator_for(
        _schemas()[schema_file], registry=registry, base_uri=_BASE_URI + schema_file
    )


def _is_valid(schema_file: str, data: Any) -> bool | None:
    fast = fast_validator(schema_file)
    if fast is None or _has_whole_float(data):
        return None  # the fast validator counts 2.0 as an integer: the full one says where it is
    return fast.is_valid(data)


def _has_whole_float(data: Any) -> bool:
    """Whether a number like `2.0` is anywhere in the data (iteratively: documents may nest deep)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, float) and value.is_integer():
            return True
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def document_kind(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """Which kind of document this is, from its naming key."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [
            error("S002", "a content file must be a mapping", doc.span(()),
                  "start the file with its kind, e.g. `hero: My Hero`")
        ]
    present = [k for k in KINDS if k in data]
    if len(present) == 1:
        return present[0], []
    if len(present) > 1:
        return None, [
            error("S002", f"a content file is one kind of document, but this one has "
                  f"{', '.join(f'`{k}`' for k in present)}", doc.key_span((present[1],)),
                  "put each kind in its own file")
        ]
    guess = None
    for key in data:
        close = difflib.get_close_matches(str(key), KINDS, n=1, cutoff=0.6)
        if close:
            guess = (key, close[0])
            break
    if guess:
        return None, [
            error("S002", f"unknown document kind `{guess[0]}`; did you mean `{guess[1]}`?",
                  doc.key_span((guess[0],)), f"write `{guess[1]}: ...`")
        ]
    return None, [
        error("S002", "cannot tell what kind of content this is", doc.span(()),
              "a content file starts with one of `hero:`, `card_set:`, `status_set:`, `ruleset:`, "
              "`phrasebook:`, `lexicon:`, `minion_set:`, `boss:`, `loot_set:`, `adventure:`, "
              "`valeria_rules:`, `valeria_sheet:`, `valeria_statues:`, `valeria_events:`")
    ]


def validate(doc: Document) -> tuple[str | None, list[Diagnostic], Document | None]:
    """Validate a document against the schema of its kind: its kind, the schema diagnostics, and
    what of it the later stages may check — the document when it is valid; a copy without the items
    (`ITEMS`) that have errors when only items have them, so that the others' effect text is still
    checked; None when an error outside every item leaves nothing usable."""
    kind, diags = document_kind(doc)
    if kind is None:
        return None, diags, None
    if _is_valid(KINDS[kind], doc.data):
        return kind, [], doc
    errors = list(validator(KINDS[kind]).iter_errors(doc.data))
    said = [(tuple(err.absolute_path)[:1], d) for err in errors for d in _diagnose(_most_specific(err), doc)]
    unique = {(d.code, d.span, d.message): d for _, d in said}
    rest, unchecked = _without_broken_items(doc, kind, errors)
    if unchecked is not None and unique:  # the others' errors are not reported this time: said, and why
        where, why = unchecked
        first = min([d for top, d in said if top == where] or unique.values(), key=sort_key)
        at = (first.code, first.span, first.message)
        unique[at] = unique[at].with_note(
            f"the rest of this file is not checked until this is fixed: with this entry left out, {why}")
    return kind, list(unique.values()), rest


# The entries of these top-level lists (and the `ultimate`) are items: a schema error inside one
# leaves that item out and the rest of its document is still checked. Components and verbs are
# not: the text around them is read with their names (a form, a hero's own phrase), and
# without them every use would be misread into errors that are no news.
ITEMS: dict[str, tuple[str, ...]] = {
    "hero": ("status_effects", "offensive", "ultimate", "defensive", "passive", "cards"),
    "card_set": ("cards",),
    "loot_set": ("cards",),
    "status_set": ("status_effects",),
    "minion_set": ("minions",),
    "boss": ("offensive", "ultimate", "defensive", "passive", "upgrade_deck", "action_deck"),
}
_ONE_ITEM = ("ultimate",)  # a top-level value that is one item, not a list of them
# top-level values only a hero's page and the artifact read, never the checks: one in error is left
# out of a document of `ITEMS` as an item is (a `complexity: high` hides no effect's error)
_ASIDE = ("complexity", "tagline", "summary", "source", "authored")


def _without_broken_items(doc: Document, kind: str,
                          errors: list[ValidationError]) -> tuple[Document | None, tuple | None]:
    """The document without the items the errors are in, or None: an error is outside every item,
    or what is left is not valid either (a list that must not be empty, now is: then where, as the
    top-level key or `()`, and why, in words)."""
    broken = set()
    for err in errors:
        item = _item_at(kind, tuple(err.absolute_path), doc.data)
        if item is None:
            return None, None
        broken.add(item)
    rest = doc.without(broken)
    first = None if _is_valid(KINDS[kind], rest.data) else next(
        validator(KINDS[kind]).iter_errors(rest.data), None)
    if first is not None:
        first = _most_specific(first)
        said = _diagnose(first, rest)
        return None, (tuple(first.absolute_path)[:1], said[0].message if said else first.message)
    rest.left_out = tuple(name for item in broken for name in _names_of(doc.get(item)))
    return rest, None


def _item_at(kind: str, path: tuple, data: dict) -> tuple | None:
    """The item (`(key, index)` or `(key,)`) the value at `path` is in, or None (in no item)."""
    if not path or path[0] not in ITEMS.get(kind, ()) + (_ASIDE if kind in ITEMS else ()):
        return None
    if path[0] in _ONE_ITEM + _ASIDE:
        return path[:1]
    if isinstance(data[path[0]], list) and len(path) > 1:
        return path[:2]
    return None


def _names_of(item: Any) -> list[str]:
    """What other text may call an item by: its name and, for a slotted status, each tier of each
    slot (`Gold Helmet`). Read warily: the item did not validate."""
    names = [item["name"]] if isinstance(item, dict) and isinstance(item.get("name"), str) else []
    for slot in _dicts(item.get("slots") if names else None):
        names.extend(f"{tier['name']} {slot['name']}" for tier in _dicts(slot.get("tiers"))
                     if isinstance(tier.get("name"), str) and isinstance(slot.get("name"), str))
    return names


def _dicts(value: Any) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def validate_effect_ast(data: Any) -> list[str]:
    """Schema messages for a parsed effect in JSON form (empty when it conforms)."""
    if _is_valid("effect.schema.json", data):
        return []
    v = validator("effect.schema.json")
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(data)]


# ----------------------------------------------------------- error → diagnostic


def _most_specific(err: ValidationError) -> ValidationError:
    """Descend into anyOf/oneOf failures to the branch the author most likely meant."""
    while err.context:
        candidates = [e for e in err.context if not _is_wrong_branch(e)] or list(err.context)
        err = max(candidates, key=lambda e: (len(e.absolute_path), -len(e.schema_path)))
    return err


def _is_wrong_branch(e: ValidationError) -> bool:
    # A branch whose very type differs from the value (a string where a mapping
    # was written) is not what the author meant.
    return e.validator == "type" and len(e.relative_path) == 0


def _label(path: tuple) -> str:
    for i in range(len(path) - 1, -1, -1):
        if isinstance(path[i], str):
            rest = path[i + 1:]
            if rest:
                return f"item {rest[0] + 1} of `{path[i]}`"
            return f"`{path[i]}`"
    return "the document"


_TYPE_WORDS = {
    "object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
    "number": "a number", "boolean": "true or false", "null": "empty",
}


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"`{value!r}` written with a point (write `{int(value)}`)"
    if isinstance(value, float):
        return "a number"
    if value is None:
        return "empty"
    return "text"


def _diagnose(err: ValidationError, doc: Document) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    label = _label(path)
    kind = err.validator
    if kind == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        if not allowed and err.parent is not None:
            allowed = list(err.parent.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
        out = []
        for key in extra:
            close = difflib.get_close_matches(key.replace(" ", "_"), allowed, n=1, cutoff=0.6)
            hint = f"did you mean `{close[0]}`?" if close else (
                "allowed here: " + ", ".join(f"`{a}`" for a in allowed) if allowed else None)
            if " " in key.strip() and not close:
                hint = ("inside `{ ... }` a comma ends the value: quote text that contains "
                        "commas, or write the mapping one key per line")
            out.append(error("S003", f"unknown key `{key}` in {label}",
                             doc.key_span(path + (key,)), hint))
        return out
    if kind == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        hint = None
        if "then" in err.schema_path and isinstance(err.instance, dict) and "kind" in err.instance:
            hint = f"a `{err.instance['kind']}` needs " + ", ".join(f"`{k}`" for k in err.validator_value)
        if isinstance(err.instance, dict) and len(err.instance) == 1:
            (key,) = err.instance
            if isinstance(key, str) and " " in key.strip():  # `- When spent, choose one: heal 2...`
                hint = (f"the text has `: ` in it, so YAML read `{key}:` as a key; quote the whole "
                        "text, or write it as a block (`>-`, the text on the lines below)")
        span = doc.key_span(path) if path else doc.span(())
        return [error("S004", f"{label} is missing `{k}`", span, hint) for k in missing]
    if kind == "type":
        expected = err.validator_value
        expected = expected if isinstance(expected, list) else [expected]
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
        return [error("S001", f"{label} must be {words}, not {_type_word(err.instance)}",
                      doc.span(path))]
    if kind in ("enum", "const"):
        options = err.validator_value if kind == "enum" else [err.validator_value]
        shown = ", ".join(f"`{o}`" for o in options if o is not None)
        close = difflib.get_close_matches(str(err.instance), [str(o) for o in options], n=1, cutoff=0.5)
        hint = f"did you mean `{close[0]}`?" if close else None
        return [error("S001", f"{label} must be one of {shown}; got `{err.instance}`",
                      doc.span(path), hint)]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[kind]
        return [error("C010", f"{label} must be {bound} {err.validator_value}; got {err.instance}",
                      doc.span(path))]
    if kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        return [error("S001", f"{label} must have {bound} {err.validator_value} item(s)",
                      doc.span(path))]
    if kind in ("minLength", "maxLength"):
        if kind == "minLength":
            return [error("S001", f"{label} must not be empty", doc.span(path))]
        return [error("S001", f"{label} is longer than {err.validator_value} characters",
                      doc.span(path))]
    if "propertyNames" in err.schema_path and isinstance(err.instance, str):
        key = err.instance
        return [error("S001", f"key `{key}` is not allowed in {label}",
                      doc.key_span(path + (key,)), _pattern_hint(path + (key,)))]
    if kind == "pattern":
        return [error("S001", f"{label} `{err.instance}` is not allowed here", doc.span(path),
                      _pattern_hint(path))]
    if kind in ("minProperties", "maxProperties"):
        bound = "at least" if kind == "minProperties" else "at most"
        return [error("S001", f"{label} must have {bound} {err.validator_value} entries",
                      doc.span(path))]
    return [error("S001", f"{label}: {err.message}", doc.span(path))]


def _pattern_hint(path: tuple) -> str | None:
    if "faces" in path:
        return "dice faces are numbered 1, 2, 3, ..."
    if "allow" in path:
        return "name a warning by its name (`unreachable-condition`) or code (`C007`)"
    return "names must not start or end with spaces or brackets"
