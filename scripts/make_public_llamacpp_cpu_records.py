#!/usr/bin/env python3
"""Writes data/public/llamacpp_cpu.jsonl: llama.cpp CPU-only figures published by others, as decode_step and
prefill_step records for the cpu device kind (issue 38). Each row: the figure as published (tokens/s or ms/token),
the step it is modelled as, the chip file and its `set` (thread count; the published machine's differences from
the chip file), the source URL and the software. seconds = 1 / tokens_per_s for a decode step; prompt / tokens_per_s
for a prefill step. Where a source does not state the context or prompt length, the record says so ("approx") and
uses the length named in `assumed`: a decode's time barely depends on a short context, a compute-bound prefill's
per-token time barely on the prompt's length.
"""
import json
import pathlib

# Xeon w9-3475X (Intel ARK: 36 Golden Cove cores, 82.5 MB L3, 8 x DDR5-4800), capped at 2.2 GHz. The PR uses AMX
# tiles inside ggml's vec_dot (16x16x16 bf16 dot products per call), not as a blocked GEMM: far below the tile
# peak, so these records run the SIMD path (matrix unit off) and fit its efficiencies.
W9 = ["cpu.cores=36", "cpu.clock=2.2 GHz", "cache.l3.size=82.5 MiB", "cpu.matrix.kind=none"]
PR7487 = ("https://github.com/ggml-org/llama.cpp/pull/7487 (description: llama-bench on a Xeon w9-3475X capped to "
          "2.2 GHz fixed, Llama-2-7b-chat Q4_0, 3.56 GiB)")
SW7487 = "llama.cpp PR 7487 branch (AMX dot product), llama-bench -pg 0,0 -t 4,8,16: pp512 and tg128, CPU backend"
PR21916 = ("https://github.com/ggml-org/llama.cpp/pull/21916 (description: Graviton3E, 64 cores, Llama-3.1-8B Q8_0, "
           "prompt eval tokens/s, SVE column)")
SW21916 = "llama.cpp PR 21916 (SVE ggml_gemm_q8_0_4x8_q8_0), prompt evaluation tokens/s; prompt length not stated"
PR7433 = ("https://github.com/ggml-org/llama.cpp/pull/7433 (description: AWS Graviton3E hpc7g, llama-2-7b-chat Q4_0, "
          "decoding throughput, SVE column)")
SW7433 = "llama.cpp PR 7433 (SVE q4_0_q8_0 vec_dot), ./main --threads 2 --n-predict 512 --prompt 'AI is going to'"
XD1 = ("https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/issues/1 (M2 Mini Pro (12/19/32) CPU rows: "
       "mean eval time and mean prompt eval time, ms/token, Llama-2 7B)")
SWXD1 = "llama.cpp commit 335acd2 (2023-08-24), CPU only, default threads (8 P-cores); prompt length not stated"
JT = ("https://justine.lol/matmul/ (\"LLM Performance on Mac Studio CPU w/ 24-core M2 Ultra\", the llama.cpp "
      "2024-03-26 row: Mistral 7b q8_0, prompt 90 tok/s, eval 27 tok/s)")
SWJT = "llama.cpp 2024-03-26, CPU only, default threads (16 P-cores); prompt and output lengths not stated"
PR8672 = ("https://github.com/ggml-org/llama.cpp/pull/8672 (comment by fmz, 2024-07-26: M2 Max, GGML_NO_METAL=1 "
          "GGML_NO_ACCELERATE=1, llama 7B Q4_0, the 't/s master' column; 10 and 12 threads use E-cores, left out)")
SW8672 = "llama.cpp master of 2024-07-26 (before PR 8672's threadpool), CPU only (no Metal, no Accelerate), llama-bench"

# (kind, chip, set, model, weights, length, per-second figure, role, source, software, note)
ROWS = [
    ("prefill_step", "xeon_8480", W9 + ["cpu.threads=4"], "llama2_7b", "int4", 512, 21.45, "fit", PR7487, SW7487, ""),
    ("decode_step", "xeon_8480", W9 + ["cpu.threads=4"], "llama2_7b", "int4", 64, 6.83, "fit", PR7487, SW7487, ""),
    ("prefill_step", "xeon_8480", W9 + ["cpu.threads=8"], "llama2_7b", "int4", 512, 42.74, "judge", PR7487, SW7487, ""),
    ("decode_step", "xeon_8480", W9 + ["cpu.threads=8"], "llama2_7b", "int4", 64, 12.32, "judge", PR7487, SW7487, ""),
    ("prefill_step", "xeon_8480", W9 + ["cpu.threads=16"], "llama2_7b", "int4", 512, 84.09, "judge", PR7487, SW7487, ""),
    ("prefill_step", "graviton3", ["cpu.threads=4"], "llama3_1_8b", "int8", 128, 48.72, "fit", PR21916, SW21916, "approx"),
    ("prefill_step", "graviton3", ["cpu.threads=8"], "llama3_1_8b", "int8", 128, 96.21, "judge", PR21916, SW21916, "approx"),
    ("prefill_step", "graviton3", ["cpu.threads=16"], "llama3_1_8b", "int8", 128, 189.44, "judge", PR21916, SW21916, "approx"),
    ("decode_step", "graviton3", ["cpu.threads=2"], "llama2_7b", "int4", 256, 4.05, "fit", PR7433, SW7433, "approx"),
    ("prefill_step", "apple_m2_max_cpu", ["cpu.threads=4"], "llama2_7b", "int4", 512, 32.97, "fit", PR8672, SW8672, ""),
    ("decode_step", "apple_m2_max_cpu", ["cpu.threads=4"], "llama2_7b", "int4", 64, 18.01, "fit", PR8672, SW8672, ""),
    ("prefill_step", "apple_m2_max_cpu", ["cpu.threads=6"], "llama2_7b", "int4", 512, 47.43, "judge", PR8672, SW8672, ""),
    ("decode_step", "apple_m2_max_cpu", ["cpu.threads=6"], "llama2_7b", "int4", 64, 23.10, "judge", PR8672, SW8672, ""),
    ("prefill_step", "apple_m2_max_cpu", ["cpu.threads=8"], "llama2_7b", "int4", 512, 49.90, "judge", PR8672, SW8672, ""),
    ("decode_step", "apple_m2_max_cpu", ["cpu.threads=8"], "llama2_7b", "int4", 64, 18.09, "judge", PR8672, SW8672, ""),
    ("decode_step", "apple_m2_pro_cpu", [], "llama2_7b", "int4", 64, 1000 / 47.81, "judge", XD1, SWXD1, "approx"),
    ("decode_step", "apple_m2_pro_cpu", [], "llama2_7b", "fp16", 64, 1000 / 117.84, "fit", XD1, SWXD1, "approx"),
    ("prefill_step", "apple_m2_pro_cpu", [], "llama2_7b", "int4", 128, 1000 / 16.99, "judge", XD1, SWXD1, "approx"),
    ("prefill_step", "apple_m2_pro_cpu", [], "llama2_7b", "fp16", 128, 1000 / 17.19, "judge", XD1, SWXD1, "approx"),
    ("decode_step", "apple_m2_ultra_cpu", [], "mistral_7b", "int8", 64, 27, "judge", JT, SWJT, "approx"),
    ("prefill_step", "apple_m2_ultra_cpu", [], "mistral_7b", "int8", 128, 90, "judge", JT, SWJT, "approx"),
]

LAYERS = {"llama2_7b": 32, "llama3_1_8b": 32, "mistral_7b": 32}
GGUF = {"int4": "Q4_0", "int8": "Q8_0", "fp16": "F16"}


def record(row):
    kind, chip, sets, model, weights, length, rate, role, source, software, note = row
    decode = kind == "decode_step"
    r = {"kind": kind, "chip": chip, "model": model, "batch": 1, "layers": LAYERS[model], "weights": weights,
         "kv": "fp16", ("context" if decode else "prompt"): length,
         "seconds": (1 / rate) if decode else (length / rate), "tokens_per_s": round(rate, 4),
         "gguf": GGUF[weights], "role": role, "set": sets, "source": source, "software": software}
    if note:
        r["assumed"] = f"{'context' if decode else 'prompt'} {length} (not stated by the source)"
    return r


out = pathlib.Path(__file__).resolve().parent.parent / "data" / "public" / "llamacpp_cpu.jsonl"
out.write_text("".join(json.dumps(record(r)) + "\n" for r in ROWS))
print(f"{out}: {len(ROWS)} records")
