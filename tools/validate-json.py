#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema with the `jsonschema` package (tools/requirements.txt).

usage: validate-json.py SCHEMA FILE [--lines]

FILE is one JSON document, or with --lines newline-delimited JSON (every non-empty line one document).
Prints one line per invalid document (FILE:LINE: the validator's message at its JSON path) and exits 1 when any
is invalid, 2 on a usage error or a file that is not JSON; prints "valid: N documents" and exits 0 otherwise.
The schema's own "$schema" picks the draft (SARIF 2.1.0's schema is draft-07, lifetrace's NDJSON schema 2020-12).
"""
import json
import sys

import jsonschema


def main(argv):
    args = [a for a in argv if a != "--lines"]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema_path, path = args
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "--lines" in argv:
        documents = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    else:
        documents = [(1, text)]
    bad = 0
    for number, body in documents:
        try:
            document = json.loads(body)
        except json.JSONDecodeError as error:
            print(f"{path}:{number}: not JSON: {error}")
            return 2
        for error in validator.iter_errors(document):
            bad += 1
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}:{number}: /{where}: {error.message}")
    if bad:
        return 1
    print(f"valid: {len(documents)} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
