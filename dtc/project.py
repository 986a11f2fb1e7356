"""Project: paths in, checked content and all its diagnostics out.

This is the whole front end in order — find files, load, schema-check, build
the model, check — for `dtc lint`, `dtc show` and every later command.  When
the given files hold no ruleset, the built-in rulesets are used so that a
designer's lone hero file can be checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dtc import model
from dtc.checker import Checker, check
from dtc.diagnostics import Diagnostic, Findings, Severity, error, sort_key, warning
from dtc.loader import Document, load_file
from dtc.resolve import fold, singular
from dtc.resources import data_dir
from dtc.schema import validate
from dtc.source import SourceFile, display_path, real_path

CONTENT_SUFFIXES = (".yaml", ".yml")
PHRASEBOOK = "phrasebook.yaml"  # the built-in phrasebook, under content/rules/
# the kinds whose items other files name (a status set's statuses, a card set's cards): an item of
# one left out is missing everywhere, an item of a hero only in its own file
SHARED_KINDS = ("status_set", "card_set", "loot_set")
# unknown status effect, a phrase no verb matches (`Gain <status>` with that status left out), upgrade of
# no ability, unknown name: what naming a left-out item gives
FOLLOW_ON_CODES = ("C002", "C005", "C009", "C024")


@dataclass
class Result(Findings):
    """What the front end made of some paths."""

    content: model.Content
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    files: int = 0
    usage_error: bool = False  # a path was missing or unreadable
    unreadable: int = 0  # files that could not be read as a valid document (their errors are reported)
    # the names of the items a schema error left out: (the file, or None: every file; folded name)
    left_out: set[tuple[str | None, str]] = field(default_factory=set)



def discover(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """Content files under the given paths (folders are searched), sorted."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            named = [p for p in path.rglob("*") if p.suffix in CONTENT_SUFFIXES
                     and not _hidden(p.relative_to(path))]
            found = sorted(p for p in named if p.is_file())
            files.extend(found)
            for broken in sorted(p for p in named if p.is_symlink() and not p.exists()):
                # a content file that is a link to nothing: said, not passed over in silence
                problems.append(warning("Y009", f"`{display_path(broken)}` is a symbolic link that leads "
                                        "nowhere (a loop, or a target that is gone): not read", None,
                                        "fix the link or remove it"))
            if not found:  # a diagnostic like a missing path's: one shape in every output format
                problems.append(error("Y009", "no content files (*.yaml, *.yml) under "
                                      f"`{display_path(path)}`", None,
                                      "name a folder holding content, or the files themselves"))
        elif path.is_file():
            files.append(path)
        elif path.is_symlink():
            problems.append(error("Y009", f"`{display_path(path)}` is a symbolic link that leads nowhere "
                                  "(a loop, or a target that is gone)", None, "check the link"))
        elif path.exists():  # a device, a FIFO, a socket: nothing to read content from
            problems.append(error("Y009", f"`{display_path(path)}` is {_kind_of(path)}, not a content file "
                                  "or folder", None, "name a YAML file or a folder of them"))
        else:
            problems.append(error("Y009", f"no such file or folder: `{display_path(path)}`", None,
                                  "check the path"))
    unique = list(dict.fromkeys(p.resolve() for p in files))
    return unique, problems


def _kind_of(path: Path) -> str:
    """What a path that is neither a file nor a folder is, in a few words."""
    import stat

    mode = path.stat().st_mode
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _hidden(relative: Path) -> bool:
    """A file in a hidden folder under the one searched, or hidden itself (`.github/`, `.venv/`,
    `.pre-commit-config.yaml`): not content, and linting `.` at a repository's root found them."""
    return any(part.startswith(".") for part in relative.parts)


def builtin_content_dir() -> Path:
    """The content shipped with dtc."""
    return data_dir("content")


def load_documents(files: list[Path], result: Result) -> list[tuple[str, Document]]:
    """Each file's usable document and its kind: valid, or without its items in schema error (what
    went wrong, and the names left out, go to `result`)."""
    documents = []
    for path in files:
        doc, diags = load_file(path, result.sources)
        result.diagnostics.extend(diags)
        if any(d.code == "Y009" for d in diags):
            result.usage_error = True
        if doc is None:
            result.unreadable += 1
            continue
        kind, diags, usable = validate(doc)
        result.diagnostics.extend(diags)
        if diags:
            result.unreadable += 1
        if kind is not None and usable is not None:  # valid, or its valid items (`schema.ITEMS`)
            documents.append((kind, usable))
            owner = None if kind in SHARED_KINDS else usable.path
            result.left_out.update((owner, name) for item in usable.left_out for name in _forms(item))
    return documents


def _forms(name: str) -> set[str]:
    """A name folded, as written and in the singular (`2 Burns`)."""
    return {fold(name), singular(name)}


def _without_follow_ons(result: Result) -> None:
    """Leave out the diagnostics that only say a left-out item is missing — an effect naming a status,
    an upgrade naming an ability, whose entry had a schema error: that error is reported, and once
    it is fixed the name is found."""
    if result.left_out:
        result.diagnostics = [d for d in result.diagnostics if not _follow_on(d, result.left_out)]


def _follow_on(d: Diagnostic, left_out: set[tuple[str | None, str]]) -> bool:
    if d.code not in FOLLOW_ON_CODES or d.span is None:
        return False
    named = {form for name in re.findall(r"`([^`]+)`", d.message) for form in _forms(name)}
    return any((owner, form) in left_out for form in named for owner in (None, d.span.path))


def run(paths: list[Path], builtin_rules: bool = True, keep_heroes: bool = True) -> Result:
    """Load and check everything under `paths`.

    With `keep_heroes=False` (`dtc lint`), a hero file is read and checked only once everything
    else is, and let go before the next: memory grows with what is reported, not with the heroes
    (issue "Hardening": 2,000 heroes). The diagnostics are the same; `content` lacks those heroes.
    """
    result = Result(model.Content())
    files, problems = discover(paths)
    result.diagnostics.extend(problems)
    result.usage_error = any(d.severity == Severity.ERROR for d in problems)  # not a broken link's warning
    result.files = len(files)
    later = {} if keep_heroes else {path: stub for path in files if (stub := hero_stub(path)) is not None}
    documents = load_documents([path for path in files if path not in later], result)
    if builtin_rules and not any(kind == "ruleset" for kind, _ in documents):
        rules = sorted(p for p in (builtin_content_dir() / "rules").glob("*.yaml") if p.name != PHRASEBOOK)
        quiet = Result(model.Content())
        documents = load_documents(rules, quiet) + documents
        result.sources.update(quiet.sources)
    if builtin_rules and not any(kind == "phrasebook" for kind, _ in documents):
        # the printed phrasings every Dice Throne text uses, unless the content brings its own
        quiet = Result(model.Content())
        documents = load_documents([builtin_content_dir() / "rules" / PHRASEBOOK], quiet) + documents
        result.sources.update(quiet.sources)
    result.content = model.build(documents)
    if later:
        if not _check_heroes_one_by_one(files, later, result):
            return run(paths, builtin_rules)  # a file was not the hero it looked like: all at once
    else:
        result.diagnostics.extend(check(result.content))
    result.content.valeria = _valeria(documents, result)
    _without_follow_ons(result)
    result.diagnostics.sort(key=sort_key)
    return result


def _check_heroes_one_by_one(files: list[Path], later: dict[Path, tuple], result: Result) -> bool:
    """Check the content with the heroes of `later` read one at a time, in file order among the
    others; False when one of them is not the hero its stub said (what it holds may change how the
    others read: the caller checks everything at once instead)."""
    order = {display_path(path): i for i, path in enumerate(files)}
    loaded = {hero.doc.path: hero for hero in result.content.heroes}
    file_of = {display_path(path): path for path in later}
    stubs = {shown: later[path] for shown, path in file_of.items()}
    stubs.update({path: (hero.name, _status_names(hero)) for path, hero in loaded.items()})
    heroes = sorted(stubs, key=lambda path: order.get(path, -1))
    checker = Checker(result.content, [(stubs[path][0], path, list(stubs[path][1])) for path in heroes])
    checker.check_shared()
    for path in heroes:
        hero = loaded.get(path)
        if hero is None:
            documents = load_documents([file_of[path]], result)
            if documents and documents[0][0] != "hero":
                return False
            hero = model.build(documents).heroes[0] if documents else None
            said = (hero.name, _status_names(hero)) if hero is not None else None
            if said != stubs[path] and (hero is not None or stubs[path][1]):
                return False  # not the hero the text looked like; a broken file's statuses were counted
        if hero is not None:
            checker.check_one_hero(hero)
    checker.check_rest()
    result.diagnostics.extend(checker.diags)
    return True


def _status_names(hero: model.Hero) -> tuple[str, ...]:
    return tuple(s.name for s in hero.statuses)


_UNUSUAL = re.compile(r"(?:^|[\s\[{,])[&*!]\S|<<|\t|\r|^(?:---|\.\.\.)|^%", re.M)
_TOP_KEY = re.compile(r"^([^\s#:'\"-][^:#]*?):(?:[ \t]|$)")
_ITEM = re.compile(r"^( *)- ")
_NAME = re.compile(r"^( *)(?:- )?name:[ \t]+(.*?)[ \t]*$")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 '.!-]*")
_NOT_TEXT = re.compile(r"(?i)(true|false|yes|no|on|off|null|y|n)")


def hero_stub(path: Path) -> tuple[str, tuple[str, ...]] | None:
    """A hero file's name and its status effects' names, read from the text of the usual block
    layout without loading it, or None (not plainly a hero: it is loaded with the rest). Only a
    guess of what to check later: the hero, once loaded, must say the same."""
    from dtc.schema import KINDS

    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if _UNUSUAL.search(text):
        return None  # anchors, aliases, merges, tabs, several documents: the loader's to read
    lines = text.split("\n")
    top = _top_keys(lines)
    if top is None or [k for k in KINDS if k in top] != ["hero"]:
        return None
    name = _scalar(lines[top["hero"]].partition(":")[2])
    if name is None:
        return None
    if "status_effects" not in top:
        return name, ()
    statuses = _status_block_names(lines, top["status_effects"])
    return None if statuses is None else (name, statuses)


def _top_keys(lines: list[str]) -> dict[str, int] | None:
    """Each top-level key of a block mapping and its line (0-based), or None (not one)."""
    top = {}
    for i, line in enumerate(lines):
        if line and not line.startswith((" ", "#")):
            found = _TOP_KEY.match(line)
            if found is None:
                return None
            top[found.group(1)] = i
    return top


def _status_block_names(lines: list[str], start: int) -> tuple[str, ...] | None:
    """The `name:` of each item of the block list under `status_effects:` at line `start`."""
    value = lines[start].partition(":")[2].strip()
    if value == "[]":
        return ()
    if value:
        return None
    block = []
    for line in lines[start + 1:]:
        if line and not line.startswith((" ", "#")):
            break
        block.append(line)
    indents = [len(m.group(1)) for line in block if (m := _ITEM.match(line))]
    if not indents:
        return None
    indent = min(indents)
    names: list[str] = []
    for line in block:
        item = _ITEM.match(line)
        if item and len(item.group(1)) == indent:
            names.append("")  # a new status, its name to come
        found = _NAME.match(line)
        if found and names and (len(found.group(1)) == indent and line.lstrip().startswith("- ")
                                or len(found.group(1)) == indent + 2):
            if names[-1]:
                return None
            names[-1] = _scalar(found.group(2)) or ""
    return tuple(names) if names and all(names) else None


def _scalar(value: str) -> str | None:
    """A YAML scalar that is plainly text, or None."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'" and "'" not in value[1:-1]:
        return value[1:-1]
    if len(value) >= 2 and value[0] == value[-1] == '"' and not any(c in value[1:-1] for c in '"\\'):
        return value[1:-1]
    if _PLAIN.fullmatch(value) and not _NOT_TEXT.fullmatch(value):
        return value
    return None


def _valeria(documents: list[tuple[str, Document]], result: Result):
    """The Kingdoms of Valeria documents, checked (with the built-in rules if none were given)."""
    from dtc.valeria import content as valeria

    mine = [(k, d) for k, d in documents if k.startswith("valeria_")]
    fallback = None
    if mine and not any(k == "valeria_rules" for k, _ in mine):
        quiet = Result(model.Content())
        loaded = load_documents([builtin_content_dir() / "valeria" / "rules.yaml"], quiet)
        result.sources.update(quiet.sources)
        fallback = loaded[0][1] if loaded else None
    built = valeria.build(mine, fallback)
    # a sheet whose file did not load is not "unknown" to the events that name it
    result.diagnostics.extend(valeria.check(built, complete=not result.unreadable))
    return built


def artifact_names(result: Result, paths: list[Path]) -> dict[str, str]:
    """Each document's name inside an artifact: relative to the folder holding the input
    that found it (`content/heroes/my-hero.yaml` whether compiled from `.` or from `/tmp`). A
    folder given is named `content/` whatever it is called: a copy or a renamed content folder
    compiles to the same ruleset (the same hash, so its saves and logs still fit)."""
    bases = [real_path(p).parent for p in paths] + [builtin_content_dir().resolve().parent]
    folders = [real_path(p) for p in paths if Path(p).is_dir()]
    names = {}
    for path in result.sources:
        real = real_path(Path(path))
        folder = next((f for f in folders if real.is_relative_to(f)), None)
        if folder is not None:
            names[path] = "content/" + real.relative_to(folder).as_posix()
            continue
        for base in bases:
            if real.is_relative_to(base):
                names[path] = real.relative_to(base).as_posix()
                break
        else:
            names[path] = real.name
    return names


def builtin() -> Result:
    """The built-in content, checked."""
    return run([builtin_content_dir()])
