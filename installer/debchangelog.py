#!/usr/bin/env python3
"""Writes the Debian changelog (changelog.gz of a native package) from the <release> entries
of the AppStream metainfo, so the releases are listed in one place only.

A build whose version is not among the releases (a development build, the upgrade test's
second build) gets an entry of its own on top, dated now (or SOURCE_DATE_EPOCH).
"""

import argparse
import datetime
import email.utils
import gzip
import os
import textwrap
import xml.etree.ElementTree as ElementTree


def release_text(release):
    """The release's description as changelog bullets: one per paragraph or list item."""
    items = []
    description = release.find("description")
    if description is not None:
        for element in description.iter():
            if element.tag in ("p", "li") and element.text:
                items.append(" ".join("".join(element.itertext()).split()))
    return items or ["Release %s." % release.get("version")]


def entry(package, version, items, maintainer, when):
    lines = ["%s (%s) unstable; urgency=medium" % (package, version), ""]
    for item in items:
        wrapped = textwrap.wrap(item, width=76)
        lines.append("  * " + wrapped[0])
        lines.extend("    " + line for line in wrapped[1:])
    lines += ["", " -- %s  %s" % (maintainer, email.utils.format_datetime(when)), ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--metainfo", required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--maintainer", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    releases = ElementTree.parse(args.metainfo).getroot().findall("releases/release")
    entries = []
    if args.version not in [r.get("version") for r in releases]:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", datetime.datetime.now().timestamp()))
        now = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).replace(microsecond=0)
        entries.append(entry(args.package, args.version,
                             ["Development build of %s, not a release." % args.version],
                             args.maintainer, now))
    for release in releases:
        day = datetime.datetime.strptime(release.get("date"), "%Y-%m-%d")
        entries.append(entry(args.package, release.get("version"), release_text(release),
                             args.maintainer, day.replace(tzinfo=datetime.timezone.utc)))

    # Reproducible (no name, no time in the header) and at the highest level (Debian policy).
    with open(args.output, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9,
                           mtime=0) as packed:
            packed.write("\n".join(entries).encode("utf-8"))


if __name__ == "__main__":
    main()
