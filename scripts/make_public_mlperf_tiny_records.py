#!/usr/bin/env python3
"""Writes data/public/mlperf_tiny.jsonl: MLPerf Tiny (closed division) inference latencies of Cortex-M
boards hwsim describes, as measurement records of kind "mlperf_tiny".

Each record is one benchmark of one submission: `benchmark` (kws: DS-CNN keyword spotting, vww:
MobileNetV1-0.25 visual wake words, ic: ResNet-8 image classification, ad: FC autoencoder anomaly
detection), `seconds` = 1 / the median throughput the EEMBC EnergyRunner harness printed in the
submission's results/<system>/<benchmark>/performance/results.txt ("Median throughput is N inf./sec.",
performance mode: five windows of repeated inferences on the board, timed by the runner's timestamps;
the throughput is that of single inferences, so its inverse is the latency of one). `chip` is the hwsim
config that describes the board, `framework` what the submission's systems/*.json names. `role`: "fit"
where the record fitted a parameter (named in `fitted`), else "judge".

Which submissions (and why only these): the current X-CUBE-AI (9.0 in round v1.2, 10.2 in v1.3, the
STMicroelectronics submissions) on the three ST boards, and TensorFlow Lite Micro with CMSIS-NN on the
Renesas EK-RA8D1 (v1.2). Older X-CUBE-AI versions (7.3, 8.0, 8.1 in v1.0/v1.1) ran the same models
1.2-1.8x slower, and the Plumerai, Bosch HALE, microTVM and ONNC submissions use their own kernels:
each would need its own framework parameters (see docs/calibration.md, "Microcontrollers").

Run: python3 scripts/make_public_mlperf_tiny_records.py
"""
import json, os
from public_records import write_public

REPO = "https://github.com/mlcommons/tiny_results_{round}/blob/{commit}/closed/{path}"
COMMITS = {"v1.2": "cadb362343f559d459e7cdb8748685ba76b9eb23", "v1.3": "cd605ea0981306693c9e19765a15801c776988dc"}
TIMING = ("EEMBC EnergyRunner performance mode (median throughput over 5 windows of >= 10 s); "
          "seconds = 1 / median throughput")

# (round, submitter dir, system dir under results/, systems json, framework as named there, core clock,
#  hwsim chip, {benchmark: median inf./s as printed})
SUBMISSIONS = [
    ("v1.2", "STMicroelectronics", "NUCLEO_H7A3ZI_Q", "NUCLEO_H7A3ZI_Q.json", "X-CUBE-AI v9.0.0", "280 MHz",
     "cortex_m7_stm32h7", {"kws": 88.356, "vww": 42.009, "ic": 24.483, "ad": 816.004}),
    ("v1.2", "STMicroelectronics", "NUCLEO_L4R5ZI", "NUCLEO_L4R5ZI.json", "X-CUBE-AI v9.0", "120 MHz",
     "cortex_m4_stm32l4r5", {"kws": 23.155, "vww": 11.245, "ic": 6.056, "ad": 190.086}),
    ("v1.2", "STMicroelectronics", "NUCLEO_U575ZI_Q", "NUCLEO_U575ZI_Q.json", "X-CUBE-AI v9.0", "160 MHz",
     "cortex_m33_stm32u575", {"kws": 34.416, "vww": 16.870, "ic": 9.003, "ad": 291.589}),
    ("v1.3", "STMicroelectronics", "NUCLEO_L4R5ZI-P", "NUCLEO_L4R5ZI-P.json", "X-CUBE-AI v10.2", "120 MHz",
     "cortex_m4_stm32l4r5", {"kws": 23.032, "vww": 11.181, "ic": 6.036, "ad": 208.608}),
    ("v1.3", "STMicroelectronics", "NUCLEO_U575ZI_Q", "NUCLEO_U575ZI_Q.json", "X-CUBE-AI v10.2", "160 MHz",
     "cortex_m33_stm32u575", {"kws": 34.489, "vww": 16.873, "ic": 9.133, "ad": 311.579}),
    ("v1.2", "Renesas", "EK-RA8D1", "EK-RA8D1.json",
     "TensorFlow Lite for Microcontrollers with CMSIS-NN (LLVM Embedded Toolchain for Arm 17.0.1)", "480 MHz",
     "cortex_m85", {"kws": 288.611, "vww": 74.665, "ic": 117.948, "ad": 1884.138}),
]

# Records that fitted a parameter: the X-CUBE-AI 9.0 NUCLEO-H7A3ZI-Q run, all four benchmarks (X-CUBE-AI's
# kernel rates on the M7: KxK conv, pointwise, fully connected, one-channel conv; docs/calibration.md). Judged:
# the same framework on two other cores and boards, and TFLM on the M85.
FIT = {("v1.2", "NUCLEO_H7A3ZI_Q"): "mcu.cmsis_nn.efficiency, pointwise_efficiency, fc_efficiency, shallow_input_efficiency (X-CUBE-AI 9.0 on the M7)"}


def records():
    for rnd, submitter, system, sysjson, framework, clock, chip, results in SUBMISSIONS:
        fitted = FIT.get((rnd, system))
        for bench, throughput in results.items():
            path = f"{submitter}/results/{system}/{bench}/performance/results.txt"
            r = dict(kind="mlperf_tiny", benchmark=bench, chip=chip, seconds=round(1.0 / throughput, 9),
                     throughput=throughput, round=rnd, submitter=submitter, system=system, clock=clock,
                     framework=framework, precision="int8",
                     source=REPO.format(round=rnd, commit=COMMITS[rnd], path=path),
                     software=f"{framework}; system description closed/{submitter}/systems/{sysjson}",
                     timing=TIMING, role="fit" if fitted else "judge")
            if fitted:
                r["fitted"] = fitted
            yield r


def main():
    out = list(records())
    write_public("mlperf_tiny.jsonl", out)


if __name__ == "__main__":
    main()
