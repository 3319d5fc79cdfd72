#!/usr/bin/env python3
"""Writes data/public/spatial_steps.jsonl: the spatial kind's calibration and judging records (issue 38), taken
from the gathered public set data/public/spatial_chips.jsonl (docs/spatial_sources.md) and spelled as records
`hwsim validate` runs: decode_step (seconds = 1 / tokens/s per user), prefill_step (seconds = the published
TTFT) and gemm (seconds = 2 M N K / TFLOPS). Each keeps its source, software and notes, and says how it is run:
the chip file, its `set` (the deployment's chip count, a benchmark's core grid or fidelity) and the dtypes that
stand in for the vendor's formats. role "fit": the record fitted a parameter named in the chip file (never
judged); "judge": everything else. Left out, with the reason in docs/calibration.md: speculative decoding (Groq
1,665 tok/s), Cerebras' later 2,100 tok/s (software of a later date, secondary), 405B (wafer count not stated),
Galaxy and Blackhole multi-card rows (layouts the kind does not describe), bfp4 GEMMs on Blackhole's 13 x 10 grid.

Stand-ins: tt-metal's bfp4_b/bfp8_b are weights=int4/int8 (the chip files give them a shared exponent per 16);
its default (bfp4 MLP + bfp8 attention) runs as weights=int4, its accuracy mode (bfp8 MLP + bf16 attention) as
weights=int8; the KV cache (bfp8) as kv=int8. Groq's numerics are not published: weights=int8 (576 chips cannot
hold Llama-2-70B in 16 bits). Llama 2 70B is not in the model catalog: Llama-3-70B's architecture (the same
layers, widths and GQA; a 128k instead of 32k vocabulary) stands in.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYERS = {"llama3_1_8b": 32, "llama3_8b": 32, "llama2_7b": 32, "llama3_1_70b": 80, "llama3_70b": 80}
TT_WEIGHTS = {"bfp4 MLP + bfp8 attention": "int4", "bfp8 MLP + bf16 attention": "int8", "bfp4 MLP FF1+FF3": "int4"}
CHIP_FILE = {"tt_wormhole_n150": ("tt_wormhole_n150", []), "tt_wormhole_n300": ("tt_wormhole_n300", []),
             "tt_wormhole_t3k": ("tt_wormhole_n300", ["spatial.chips=8"]),
             "tt_blackhole_p150": ("tt_blackhole_p150", [])}
GROQ_8B_CHIPS = 38  # the capacity check's answer for Llama-3.1-8B at int8 (footprint / 230 MB), not published
# The records that fit a parameter: (chip, model, kind, dtype prefix, value); None matches anything.
FITS = [("tt_wormhole_n150", "llama3_1_8b", "decode_tokens_per_s_per_user", "bfp4 MLP + bfp8", 28.3),
        ("groq_lpu_system", "llama3_1_8b", "decode_tokens_per_s_per_user", None, 750),
        ("cerebras_wse3_system", "llama3_1_8b", "decode_tokens_per_s_per_user", None, 1800),
        ("tt_wormhole_n150", None, "gemm_tflops", "bf16", 81.52)]


def role(r):
    key = (r["chip"], r.get("model"), r["kind"], r.get("dtype", ""), r["value"])
    for fit in FITS:
        if all(f is None or (str(k).startswith(f) if isinstance(f, str) else f == k) for f, k in zip(fit, key)):
            return "fit"
    return "judge"


def step(r, chip, sets, weights, kv, batch, length, extra):
    decode = r["kind"] != "ttft_s"
    out = {"kind": "decode_step" if decode else "prefill_step", "chip": chip, "model": r["model"], "batch": batch,
           "layers": LAYERS[r["model"]], "weights": weights, "kv": kv, ("context" if decode else "prompt"): length,
           "seconds": 1 / r["value"] if decode else r["value"], "published": r["value"], "unit": r["unit"],
           "role": role(r), "set": sets, "source": r["source"], "software": r.get("software", "")}
    out.update(extra)
    if r.get("notes"):
        out["notes"] = r["notes"]
    return out


def tenstorrent(r):
    if r["chip"] not in CHIP_FILE or r["kind"] == "throughput_tokens_per_s" or r["model"] not in LAYERS:
        return None
    weights = next((w for k, w in TT_WEIGHTS.items() if r["dtype"].startswith(k)), "int4")
    chip, sets = CHIP_FILE[r["chip"]]
    # A TTFT is one user's prefill (tt-metal prefills the batch's users one at a time).
    batch = r["batch"] if r["kind"] != "ttft_s" else 1
    return step(r, chip, sets, weights, "int8", batch, r["input_len"], {"vendor_dtype": r["dtype"], "vendor_batch": r["batch"]})


def vendor_system(r):
    model = "llama3_70b" if r["model"] == "llama2_70b" else r["model"]
    if r["kind"] != "decode_tokens_per_s_per_user" or model not in LAYERS or "specdec" in r.get("software", ""):
        return None
    if r["chip"] == "groq_lpu_system":
        chips = 576 if "70b" in r["model"] else GROQ_8B_CHIPS
        out = step(dict(r, model=model), "groq_lpu", [f"spatial.chips={chips}"], "int8", "int8", 1,
                   r.get("context", 512), {"published_model": r["model"]})
        return out
    if r["chip"] == "cerebras_wse3_system" and r["value"] != 2100:
        return step(r, "cerebras_wse3", [f"spatial.chips={r.get('chips', 1)}"], "bf16", "bf16", 1, 512, {})
    return None


def gemm(r):
    fidelity = {("bf16", "HiFi4"): ["spatial.core.matrix_flops.bf16=1024"],
                ("bfp8_b", "HiFi2"): ["spatial.core.matrix_flops.int8=2048"]}
    dtype = {"bf16": "bf16", "bfp8_b": "int8"}.get(r["dtype"])
    if r["kind"] != "gemm_tflops" or r["chip"] != "tt_wormhole_n150" or not dtype:
        return None
    sets = ["spatial.grid.cols=8"] + fidelity.get((r["dtype"], r["math_fidelity"]), [])
    return {"kind": "gemm", "chip": "tt_wormhole_n150", "M": r["M"], "N": r["N"], "K": r["K"], "dtype": dtype,
            "seconds": 2 * r["M"] * r["N"] * r["K"] / (r["value"] * 1e12), "published": r["value"], "unit": "TFLOPS",
            "vendor_dtype": r["dtype"], "math_fidelity": r["math_fidelity"], "role": role(r), "set": sets,
            "source": r["source"], "software": r.get("software", "")}


rows = [json.loads(line) for line in (ROOT / "data" / "public" / "spatial_chips.jsonl").read_text().splitlines()]
records = []
for r in rows:
    for make in (tenstorrent, vendor_system, gemm):
        out = make(r) if (make is not gemm) == ("model" in r) else None
        if out:
            records.append(out)
            break
out = ROOT / "data" / "public" / "spatial_steps.jsonl"
out.write_text("".join(json.dumps(r) + "\n" for r in records))
print(f"{out}: {len(records)} records, {sum(r['role'] == 'fit' for r in records)} fit")
