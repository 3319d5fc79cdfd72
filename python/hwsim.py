"""Drive hwsim from Python with the standard library only.

    import hwsim
    doc = hwsim.run(chip="h100", workload="decode_llama8b")          # the JSON document, a dict
    rows = hwsim.sweep(chip="h100", workload="decode_llama8b",
                       vary={"memory.hbm.bandwidth": "1TB/s..8TB/s:8", "workload.batch": [1, 8, 64]})
    print(hwsim.table(rows, ["memory.hbm.bandwidth", "workload.batch", "tokens_per_second"]))
    rows = hwsim.load("sweep.csv")                                  # .csv, .jsonl or a .json document

The binary is $HWSIM_BINARY, else `hwsim` on PATH, else build/hwsim beside this folder. A failed
command raises HwsimError carrying hwsim's one-line message and its exit code (README "Exit codes").
Rows are dicts: numbers as int or float, empty CSV cells as None, everything else as text.
"""
import csv
import json
import os
import shutil
import subprocess
import tempfile

__all__ = ["HwsimError", "binary", "run", "sweep", "load", "table"]


class HwsimError(RuntimeError):
    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code


def binary():
    """The hwsim executable this module runs."""
    if os.environ.get("HWSIM_BINARY"):
        return os.environ["HWSIM_BINARY"]
    found = shutil.which("hwsim")
    if found:
        return found
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "hwsim")


def _call(args, cwd=None):
    done = subprocess.run([binary()] + args, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "hwsim failed"
        raise HwsimError(line, done.returncode)
    return done


def _target(chip, system):
    if bool(chip) == bool(system):
        raise ValueError("give chip= or system=")
    return ["--chip", chip] if chip else ["--system", system]


def _sets(overrides):
    out = []
    for key, value in (overrides or {}).items():
        out += ["--set", "%s=%s" % (key, value)]
    return out


def run(workload, chip=None, system=None, overrides=None, summary=True, cwd=None):
    """One run; returns the result document (docs/result.schema.json) as a dict.
    summary=True leaves the per-kernel records out (--summary)."""
    args = _target(chip, system) + ["--workload", workload, "--quiet", "--json", "-"] + _sets(overrides)
    if summary:
        args.append("--summary")
    return json.loads(_call(args, cwd).stdout)


def sweep(workload, vary, chip=None, system=None, overrides=None, zip=False, jobs=None, out=None, resume=False,
          cwd=None):
    """A sweep (docs/sweeps.md); returns its rows. `vary` maps each key to a list of values or to
    range text ("1..256*2", "1TB/s..8TB/s:8"). With out=FILE.csv/.jsonl the rows stay there too."""
    args = ["sweep"] + _target(chip, system) + ["--workload", workload] + _sets(overrides)
    for key, values in vary.items():
        text = values if isinstance(values, str) else ",".join(str(v) for v in values)
        args += ["--vary", "%s=%s" % (key, text)]
    if zip:
        args.append("--zip")
    if jobs:
        args += ["--jobs", str(jobs)]
    if resume:
        args.append("--resume")
    if out:
        _call(args + ["--out", out], cwd)
        return load(os.path.join(cwd or "", out))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sweep.jsonl")
        _call(args + ["--out", path], cwd)
        return load(path)


def _value(text):
    if text is None or text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def load(path):
    """Rows of a sweep output (.csv, .jsonl) as a list of dicts, or a result document (.json)."""
    with open(path, newline="") as f:
        if path.endswith(".csv"):
            return [{k: _value(v) for k, v in row.items()} for row in csv.DictReader(f)]
        if path.endswith(".jsonl"):
            return [json.loads(line) for line in f if line.strip()]
        return json.load(f)


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return "%.4g" % value
    return str(value)


def table(rows, columns):
    """A plain-text table of some columns of rows, aligned, with a header line."""
    cells = [[str(c) for c in columns]] + [[_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(line, widths)) for line in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
