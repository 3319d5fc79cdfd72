#!/usr/bin/env python3
"""Writes data/public/edge_socs.jsonl: published LLM figures of unified-memory SoCs' GPUs (issue 38, item 3) as
decode_step and prefill_step records for the gpu device kind: NVIDIA Jetson AGX Orin 64GB (configs/jetson_agx_orin.toml)
and Apple M2 Ultra / M2 Max GPUs (configs/apple_m2_ultra_gpu.toml, apple_m2_max_gpu.toml). Each row: the figure as
published (tokens/s), the step it is modelled as, the chip file and its `set` (the published machine's differences
from the chip file), the source URL, the software and `src` (llamacpp or mlc: `--where src=KEY`).
seconds = 1 / tokens_per_s for a decode step; prompt / tokens_per_s for a prefill step. llama-bench's tg128 generates
128 tokens from an empty context: modelled as one decode step at context 64 (the mean); pp512 as one 512-token
prefill. Where a source does not state a length or the quantisation, the record says so in `assumed`.

Quantised weights: llama.cpp's Q4_0 and Q8_0 (and MLC's q4f16) are weights=int4 / int8 with 16-bit activations; the
gpu kind lowers them as fused weight-only kernels (gpu.quant.fused_kernel: tinygemm on the Orin, standing for
llama.cpp's CUDA MMVQ mat-vec kernels at batch 1; Marlin on the Apple GPUs, standing for Metal's kernel_mul_mm at
prompts). The gpu kind counts 0.53 B per int4 weight (group-128 scales and zeros) where Q4_0 stores 0.5625.
"""
import json
import pathlib

HOLO = ("https://github.com/nvidia-holoscan/holohub/issues/170 (comment by NigelNelson, 2024-01-23: IGX Orin iGPU, "
        "'IGX iGPU numbers are identical to AGX benchmarks', llama.cpp column: Llama2 7B/13B/70B 4-bit 22.5/13.3/3.0 tok/s)")
SW_HOLO = ("llama.cpp (CUDA backend, all layers on the iGPU), early 2024; prompt 'Once upon a time, '; the 4-bit GGUF "
           "type and output length not stated")
MLC_ORIN = ("https://github.com/dusty-nv/jetson-containers/issues/412 (dusty-nv, 2024-03-07: 'closer to 47 tokens/sec "
            "now on llama-2-7b with MLC (on AGX Orin and JetPack 6.0)'); issue 532: AGX Orin 64GB in MAX-N mode")
SW_MLC_ORIN = ("MLC LLM (jetson-containers mlc, q4f16_ft), benchmark.py --max-new-tokens 128, prompt "
               "completion_16.json (16 tokens); decode rate")
PR3084 = ("https://github.com/ggml-org/llama.cpp/pull/3084 (ggerganov, 2023-09-09, 'M2 Ultra results': llama-bench "
          "pp 512, the PR column; his M2 Ultra: 76-core GPU, 192 GB)")
SW3084 = "llama.cpp PR 3084 (Metal: PP speedup), llama-bench -p 512, Metal, LLaMA-2 7B F16/Q8_0/Q4_0"
PR2917 = ("https://github.com/ggml-org/llama.cpp/pull/2917 (ggerganov, 2023-08-30, 'M2 Ultra', master table: "
          "LLaMA 7B Q8_0 tg 128 62.05, Q4_0 tg 128 88.54 t/s)")
SW2917 = "llama.cpp master of 2023-08-30 (before PR 2917), llama-bench -n 128, Metal"
PR2959 = ("https://github.com/ggml-org/llama.cpp/pull/2959 (ikawrakow, 2023-09-01, 'On 30-core M2 Max': LLaMA 7B Q4_0, "
          "the t/s (PR) column: tg 128 61.71, pp 512 433.35)")
SW2959 = "llama.cpp PR 2959 (More optimizations on metal), llama-bench, Metal"
TVM = ("https://github.com/apache/tvm/pull/15985 (2023-10-26: 'On M2 Ultra, q4f16_1: Llama2 7B: 74 tok/s -> 89 tok/s, "
       "Llama2 13B: 45 tok/s -> 55 tok/s')")
SW_TVM = "MLC LLM on TVM Unity with the PR's Dlight Metal schedules, q4f16_1; decode rate, context not stated"

# (kind, chip, set, model, weights, length, tokens/s, role, src, source, software, assumed). The M2 Ultra's two
# llama.cpp decodes are `fit`: the Apple files' memory efficiency and launch overhead were read off them.
ORIN, ULTRA, MAX = "jetson_agx_orin", "apple_m2_ultra_gpu", "apple_m2_max_gpu"
A_HOLO = "context 64 and Q4_0 for '4-bit' (not stated by the source)"
ROWS = [
    ("decode_step", ORIN, [], "llama2_7b", "int4", 64, 22.5, "fit", "llamacpp", HOLO, SW_HOLO, A_HOLO),
    ("decode_step", ORIN, [], "llama2_13b", "int4", 64, 13.3, "judge", "llamacpp", HOLO, SW_HOLO, A_HOLO),
    ("decode_step", ORIN, [], "llama2_70b", "int4", 64, 3.0, "fit", "llamacpp", HOLO, SW_HOLO, A_HOLO),
    ("decode_step", ORIN, [], "llama2_7b", "int4", 64, 47.0, "judge", "mlc", MLC_ORIN, SW_MLC_ORIN,
     "context 64 (16-token prompt, 128 new tokens)"),
    ("prefill_step", ULTRA, [], "llama2_7b", "fp16", 512, 1265.30, "fit", "llamacpp", PR3084, SW3084, ""),
    ("prefill_step", ULTRA, [], "llama2_7b", "int8", 512, 1142.84, "judge", "llamacpp", PR3084, SW3084, ""),
    ("prefill_step", ULTRA, [], "llama2_7b", "int4", 512, 1164.00, "judge", "llamacpp", PR3084, SW3084, ""),
    ("decode_step", ULTRA, [], "llama2_7b", "int8", 64, 62.05, "fit", "llamacpp", PR2917, SW2917, ""),
    ("decode_step", ULTRA, [], "llama2_7b", "int4", 64, 88.54, "fit", "llamacpp", PR2917, SW2917, ""),
    ("decode_step", ULTRA, [], "llama2_7b", "int4", 64, 89.0, "judge", "mlc", TVM, SW_TVM, "context 64"),
    ("decode_step", ULTRA, [], "llama2_13b", "int4", 64, 55.0, "judge", "mlc", TVM, SW_TVM, "context 64"),
    ("prefill_step", MAX, ["gpu.sm_count=30"], "llama2_7b", "int4", 512, 433.35, "judge", "llamacpp", PR2959, SW2959, ""),
    ("decode_step", MAX, ["gpu.sm_count=30"], "llama2_7b", "int4", 64, 61.71, "judge", "llamacpp", PR2959, SW2959, ""),
]

LAYERS = {"llama2_7b": 32, "llama2_13b": 40, "llama2_70b": 80}
GGUF = {"int4": "Q4_0", "int8": "Q8_0", "fp16": "F16"}


def record(row):
    kind, chip, sets, model, weights, length, rate, role, src, source, software, assumed = row
    decode = kind == "decode_step"
    r = {"kind": kind, "chip": chip, "model": model, "batch": 1, "layers": LAYERS[model], "weights": weights,
         "kv": "fp16", ("context" if decode else "prompt"): length,
         "seconds": (1 / rate) if decode else (length / rate), "tokens_per_s": round(rate, 4),
         "quant": GGUF[weights] if src == "llamacpp" else "q4f16", "role": role, "src": src, "set": sets,
         "source": source, "software": software}
    if assumed:
        r["assumed"] = assumed
    return r


out = pathlib.Path(__file__).resolve().parent.parent / "data" / "public" / "edge_socs.jsonl"
out.write_text("".join(json.dumps(record(r)) + "\n" for r in ROWS))
print(f"{out}: {len(ROWS)} records")
