"""Writes a public calibration set: data/public/NAME, one JSON record per line (data/public/README.md)."""
import json
import os


def write_public(name, records):
    records = list(records)
    path = os.path.join(os.path.dirname(__file__), "..", "data", "public", name)
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    print(f"{len(records)} records -> {os.path.normpath(path)}")
