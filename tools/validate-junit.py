#!/usr/bin/env python3
"""Validates a JUnit XML report against an XSD with `xmlschema`, then reads it with `junitparser`.

usage: validate-junit.py XSD FILE

Prints the schema errors and exits 1 when FILE is invalid; otherwise prints one JSON object describing what
junitparser read: {"suites": [{"name", "tests", "failures", "errors", "skipped", "time",
"cases": [{"name", "time", "results": ["failure"|"error"|"skipped", ...]}]}]} and exits 0.
"""
import json
import sys

import junitparser
import xmlschema


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    xsd, path = argv
    schema = xmlschema.XMLSchema(xsd)
    errors = list(schema.iter_errors(path))
    if errors:
        for error in errors:
            print(f"{path}: {error.reason} at {error.path}")
        return 1
    xml = junitparser.JUnitXml.fromfile(path)
    suites = xml if isinstance(xml, junitparser.JUnitXml) else [xml]
    out = []
    for suite in suites:
        cases = []
        for case in suite:
            cases.append({
                "name": case.name,
                "time": case.time,
                "results": [type(result).__name__.lower() for result in case.result],
            })
        out.append({
            "name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors,
            "skipped": suite.skipped, "time": suite.time, "cases": cases,
        })
    print(json.dumps({"suites": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
