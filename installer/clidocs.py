#!/usr/bin/env python3
"""Turns app/cli/usage.txt, the text `hourglass --help` prints, into the manual page
hourglass(1) and the bash completion, so the three cannot drift apart.

usage.txt has a fixed shape: a "Usage:" line, description paragraphs, a "Commands:" block
whose entries start with two spaces (continuations with eight) and name alternatives
separated by " | ", then closing notes. Each alternative is COMMAND WORDS, then arguments:
UPPER-CASE placeholders, --options (a value follows as a placeholder or as a|b|c), [optional]
parts and "..." repetitions.
"""

import argparse
import gzip
import re
import sys

# Words of the usage text that name a command (lower case), as opposed to its arguments.
COMMAND_WORD = re.compile(r"^[a-z][a-z-]*$")
OPTION = re.compile(r"--[a-z][a-z0-9-]*")
# An option and its value: "--kind program|shell", "--tz ZONE", "--after TASK[:a|b]".
OPTION_WITH_VALUE = re.compile(r"(--[a-z][a-z0-9-]*)"
                               r"(?: ([A-Z][A-Z0-9_]*(?:[/=|][A-Z][A-Z0-9_]*)*"
                               r"|[a-z][a-z0-9-]*(?:\|[a-z0-9.-]+)+|\.\.\.))?")


class Command:
    def __init__(self, words, synopsis):
        self.words = words          # ["chain", "add"]
        self.synopsis = synopsis    # "PROJECT/CHAIN [--max-instances N] ..."
        self.options = {}           # "--kind" -> "program|shell|..." or "N" or None
        self.positionals = []       # ["PROJECT/CHAIN", "TASK"] (optional ones too)
        self._parse()

    def _parse(self):
        for match in OPTION_WITH_VALUE.finditer(self.synopsis):
            name, value = match.group(1), match.group(2)
            # "[--dialect ...]": the values are given elsewhere in the text.
            if value == "...":
                value = None
            if name not in self.options or self.options[name] is None:
                self.options[name] = value
        # Positionals: placeholders outside every option, in order.
        stripped = OPTION_WITH_VALUE.sub(" ", self.synopsis)
        for token in re.findall(r"[A-Z][A-Z0-9_]*(?:/[A-Z]+|\[/[A-Z]+\])?", stripped):
            self.positionals.append(token)
        # "Listings take --json."
        if self.words[-1] == "list":
            self.options.setdefault("--json", None)

    @property
    def key(self):
        return " ".join(self.words)


class Usage:
    def __init__(self, text):
        lines = text.rstrip("\n").split("\n")
        if not lines or not lines[0].startswith("Usage: "):
            sys.exit("clidocs: usage text must start with 'Usage: '")
        self.synopsis = lines[0][len("Usage: "):]
        try:
            commands_at = lines.index("Commands:")
        except ValueError:
            sys.exit("clidocs: usage text has no 'Commands:' line")
        self.description = paragraphs(lines[1:commands_at])
        entries, rest = [], commands_at + 1
        while rest < len(lines) and lines[rest].startswith("  "):
            line = lines[rest]
            if line.startswith("        ") and entries:
                entries[-1] += " " + line.strip()
            else:
                entries.append(line.strip())
            rest += 1
        self.notes = paragraphs(lines[rest:])
        self.commands = []
        for entry in entries:
            for alternative in entry.split(" | "):
                words = alternative.split(" ")
                command = []
                while words and COMMAND_WORD.match(words[0]):
                    command.append(words.pop(0))
                if not command:
                    sys.exit("clidocs: no command in '%s'" % alternative)
                self.commands.append(Command(command, " ".join(words)))
        # Options the values of which are listed once and referred to with "..." elsewhere.
        known = {}
        for command in self.commands:
            for name, value in command.options.items():
                if value and "|" in value:
                    known.setdefault(name, value)
        for command in self.commands:
            for name, value in command.options.items():
                if value is None and name in known and ("[%s ...]" % name) in command.synopsis:
                    command.options[name] = known[name]
        self.global_options = dict(Command(["hourglass"], self.synopsis).options)
        # Options of the program itself: the synopsis and the description name them.
        for paragraph in self.description:
            for name in OPTION.findall(paragraph):
                self.global_options.setdefault(name, None)
        self.global_options.setdefault("--help", None)
        self.global_options.setdefault("--version", None)


def paragraphs(lines):
    result, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            result.append(" ".join(current))
            current = []
    return result


# --- manual page ------------------------------------------------------------------------

def roff_escape(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return text


def roff_line(text):
    # A line that starts with a control character would be read as a request.
    return "\\&" + text if text[:1] in (".", "'") else text


def roff_synopsis(text):
    """Commands and options bold, placeholders italic, the grammar in roman."""
    out = []
    for match in re.finditer(r"--[a-z][a-z0-9-]*|[A-Z][A-Z0-9_]*(?:/[A-Z][A-Z0-9_]*)*|"
                             r"[a-z][a-z0-9_-]*|\s+|.", text):
        token = match.group(0)
        if re.match(r"^-*[a-z]", token):
            out.append("\\fB%s\\fR" % roff_escape(token))
        elif re.match(r"^[A-Z]", token):
            out.append("\\fI%s\\fR" % roff_escape(token))
        else:
            out.append(roff_escape(token))
    return "".join(out)


def roff_prose(text):
    """Description text: options in bold, the rest as written."""
    parts = re.split(r"(--[a-z][a-z0-9-]*)", text)
    return "".join("\\fB%s\\fR" % roff_escape(p) if p.startswith("--") else roff_escape(p)
                   for p in parts)


def manual_page(usage, template, version, date):
    groups, order = {}, []
    for command in usage.commands:
        group = command.words[0] if len(command.words) > 1 else ""
        if group not in groups:
            groups[group] = []
            order.append(group)
        groups[group].append(command)
    lines = []
    for group in order:
        title = {"": "Engine and runs", "dep": "Dependencies", "cron": "Cron expressions"}.get(
            group, group.capitalize() + "s")
        lines.append(".SS %s" % title)
        for command in groups[group]:
            # A hanging indent, as in a synopsis: continuation lines sit under the arguments.
            lines += [".PP", ".in +4n", ".ti -4n"]
            lines.append(roff_line(roff_synopsis(("hourglass %s %s" % (command.key,
                                                                       command.synopsis)).strip())))
            lines.append(".in")
    replacements = {
        "@VERSION@": version,
        "@DATE@": date,
        "@SYNOPSIS@": roff_line(roff_synopsis(usage.synopsis)),
        "@DESCRIPTION@": "\n.PP\n".join(roff_line(roff_prose(p)) for p in usage.description),
        "@COMMANDS@": "\n".join(lines),
        "@NOTES@": "\n.PP\n".join(roff_line(roff_prose(p)) for p in usage.notes),
    }
    page = template
    for marker, value in replacements.items():
        page = page.replace(marker, value)
    leftover = re.search(r"@[A-Z_]+@", page)
    if leftover:
        sys.exit("clidocs: unknown marker %s in the manual page template" % leftover.group(0))
    return page


# --- bash completion ----------------------------------------------------------------------

def bash_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def completion(usage, template):
    """The table the completion functions read: per command, its options (with what their
    value is) and its positional placeholders; a value or placeholder is a|b|c or a name the
    functions know (PROJECT/CHAIN, FILE, ZONE ...)."""
    table = []
    groups = sorted({c.words[0] for c in usage.commands})
    table.append("_hourglass_commands=(%s)" % " ".join(groups))
    table.append("declare -A _hourglass_verbs=(")
    for group in groups:
        verbs = [c.words[1] for c in usage.commands if c.words[0] == group and len(c.words) > 1]
        if verbs:
            table.append("    [%s]=%s" % (group, bash_quote(" ".join(verbs))))
    table.append(")")
    table.append("declare -A _hourglass_options=(")
    table.append("    [global]=%s" % bash_quote(" ".join(
        "%s=%s" % (name, value or "") for name, value in usage.global_options.items())))
    for command in usage.commands:
        options = dict(command.options)
        options.setdefault("--help", None)
        options.setdefault("--db", "PATH|URL")
        table.append("    [%s]=%s" % (bash_quote(command.key), bash_quote(" ".join(
            "%s=%s" % (name, value or "") for name, value in options.items()))))
    table.append(")")
    table.append("declare -A _hourglass_positionals=(")
    for command in usage.commands:
        table.append("    [%s]=%s" % (bash_quote(command.key),
                                      bash_quote(" ".join(command.positionals))))
    table.append(")")
    if "@COMMAND_TABLE@" not in template:
        sys.exit("clidocs: the completion template has no @COMMAND_TABLE@")
    return template.replace("@COMMAND_TABLE@", "\n".join(table))


def write(path, text, compress):
    data = text.encode("utf-8")
    if compress:
        # Reproducible (no name, no time) and at the highest level, as Debian policy asks.
        with open(path, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9,
                               mtime=0) as packed:
                packed.write(data)
    else:
        with open(path, "wb") as out:
            out.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--usage", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--man-template")
    parser.add_argument("--man")
    parser.add_argument("--man-gz", help="also write the page gzip-compressed here")
    parser.add_argument("--bash-template")
    parser.add_argument("--bash")
    args = parser.parse_args()
    with open(args.usage, encoding="utf-8") as f:
        usage = Usage(f.read())
    if args.man_template:
        with open(args.man_template, encoding="utf-8") as f:
            page = manual_page(usage, f.read(), args.version, args.date)
        if args.man:
            write(args.man, page, False)
        if args.man_gz:
            write(args.man_gz, page, True)
    if args.bash_template and args.bash:
        with open(args.bash_template, encoding="utf-8") as f:
            write(args.bash, completion(usage, f.read()), False)


if __name__ == "__main__":
    main()
