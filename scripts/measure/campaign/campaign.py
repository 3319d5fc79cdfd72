"""hwsim measurement campaign: one section per process (run.sh calls this once per section).

  python3 campaign.py TAG SECTION [--out DIR] [--bin-dir DIR] [--budget S] [--end-epoch T]
                      [--resume] [--dry-run]
  python3 campaign.py TAG summary --out DIR

SECTION: fidelity | energy | classroom | warp. Writes DIR/TAG_SECTION.jsonl (first line the device
record, then one record per case, flushed after each, last a section_meta record). Exit code 3:
the CUDA context was lost (sticky error); run.sh then re-runs the section with --resume, which
skips the cases already in the file. --dry-run: no torch, no GPU, a virtual clock and fake
timings; it exercises the case lists, budgets, record writing and file layout.
"""
import argparse
import glob
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import (Clock, ContextLost, Fake, FakeNVML, Logger, NVML, SMI_FIELDS, Section,  # noqa: E402
                    bump_clocks, device_id, package_versions, smi_query)

SECTIONS = ("fidelity", "energy", "classroom", "warp")
DEFAULT_BUDGETS = {"fidelity": 200, "energy": 200, "classroom": 90, "warp": 60}
TAG_BUDGETS = {("h200", "energy"): 240}
CAMPAIGN_VERSION = "2026-11-campaign-1"


class Ctx:
    def __init__(self, args):
        self.tag, self.section, self.dry = args.tag, args.section, args.dry_run
        self.out = args.out
        self.bin_dir = args.bin_dir
        self.state_dir = args.bin_dir
        self.end_epoch = args.end_epoch
        self.clock = Clock(virtual=self.dry)
        if self.dry and self.end_epoch:
            # the virtual clock starts at this process's wall time: keep the same distance to the end
            self.end_epoch = self.clock.now() + max(0.0, args.end_epoch - time.time())
        self.log = Logger(self.tag, self.section, self.clock)
        self.fake = Fake(self.clock)
        self.torch = None
        self.nvml = None
        self.cache = {}
        self.device = f"dry_run_{self.tag}" if self.dry else "unknown"
        self.device_record = {}
        self.l2 = 50 << 20
        self.sms = 132

    # ---------------------------------------------------------------- set-up
    def setup_torch(self):
        import torch
        self.torch = torch
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        props = torch.cuda.get_device_properties(0)
        self.device = device_id(props.name)
        self.l2 = getattr(props, "L2_cache_size", None) or (50 << 20)
        self.sms = props.multi_processor_count
        try:
            self.nvml = NVML(0)
        except Exception as e:  # noqa: BLE001
            self.log(f"NVML unavailable: {e}")
            self.nvml = None
        try:
            import triton
            tv = triton.__version__
        except Exception:  # noqa: BLE001
            tv = None
        flags = {}
        for fl in ("flash_sdp_enabled", "mem_efficient_sdp_enabled", "math_sdp_enabled", "cudnn_sdp_enabled"):
            try:
                flags[fl] = bool(getattr(torch.backends.cuda, fl)())
            except Exception:  # noqa: BLE001
                pass
        self.device_record = dict(
            kind="device", device=self.device, name=props.name, sms=props.multi_processor_count,
            l2_bytes=self.l2, mem_bytes=props.total_memory, cc=f"{props.major}.{props.minor}",
            torch=torch.__version__, cuda=torch.version.cuda,
            cudnn=torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
            triton=tv, python=sys.version.split()[0], nvidia_smi=smi_query(SMI_FIELDS),
            nvml=self.nvml.info() if self.nvml else None, sdpa_flags=flags,
            allow_tf32=bool(torch.backends.cuda.matmul.allow_tf32),
            float32_matmul_precision=torch.get_float32_matmul_precision(),
            tag=self.tag, section=self.section, campaign=CAMPAIGN_VERSION,
            env={k: os.environ.get(k) for k in ("NCCL_NVLS_ENABLE", "CUDA_VISIBLE_DEVICES")},
            started=time.strftime("%Y-%m-%d %H:%M:%S"))

    def setup_native(self):
        from native import native_device_info
        info = native_device_info(self) or {}
        self.device = device_id(info.get("name") or (smi_query("name") or {}).get("name", "unknown"))
        self.l2 = info.get("l2") or self.l2
        self.sms = info.get("sms") or self.sms
        try:
            self.nvml = NVML(0)
        except Exception as e:  # noqa: BLE001
            self.log(f"NVML unavailable: {e}")
        rec = dict(kind="device", device=self.device, name=info.get("name"), sms=info.get("sms"),
                   l2_bytes=info.get("l2"), mem_bytes=info.get("mem_bytes"), cc=info.get("cc"),
                   clock_khz=info.get("clock_khz"), cuda_runtime=info.get("runtime"),
                   cuda_driver=info.get("driver"), nvidia_smi=smi_query(SMI_FIELDS),
                   nvml=self.nvml.info() if self.nvml else None, tag=self.tag, section=self.section,
                   campaign=CAMPAIGN_VERSION, started=time.strftime("%Y-%m-%d %H:%M:%S"))
        rec.update(package_versions())
        self.device_record = rec

    def setup_dry(self):
        self.nvml = FakeNVML(self.clock)
        self.device_record = dict(
            kind="device", device=self.device, name=f"DRY RUN (fake {self.tag})", sms=132, l2_bytes=50 << 20,
            mem_bytes=85017493504, cc="9.0", dry_run=True, tag=self.tag, section=self.section,
            campaign=CAMPAIGN_VERSION, started=time.strftime("%Y-%m-%d %H:%M:%S"), **package_versions())

    # ---------------------------------------------------------------- helpers for sections
    def empty_cache(self):
        if self.torch is not None:
            try:
                self.torch.cuda.empty_cache()
            except Exception:  # noqa: BLE001
                pass

    def after_error(self):
        """After a failed case: is the CUDA context still usable? If not, the section stops."""
        if self.dry or self.torch is None:
            return
        try:
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001
            if "out of memory" in str(e).lower():
                return
            raise ContextLost(str(e))


# ============================================================================ summary
def summary(out, tag):
    files = sorted(glob.glob(os.path.join(out, f"{tag}_*.jsonl")))
    print(f"\n================ SUMMARY {tag}: {len(files)} files in {out} ================")
    for p in files:
        recs = []
        bad = 0
        for line in open(p):
            try:
                recs.append(json.loads(line))
            except Exception:  # noqa: BLE001
                bad += 1
        kinds = {}
        errs = {}
        for r in recs:
            k = r.get("kind")
            if "error" in r:
                errs[k] = errs.get(k, 0) + 1
            else:
                kinds[k] = kinds.get(k, 0) + 1
        metas = [r for r in recs if r.get("kind") == "section_meta"]
        first = recs[0].get("kind") if recs else None
        size = os.path.getsize(p)
        print(f"\n{os.path.basename(p)}: {len(recs)} lines, {size / 1024:.0f} KiB, first line kind={first}"
              f"{', UNPARSEABLE lines: %d' % bad if bad else ''}")
        print("  records by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: str(kv[0]))))
        if errs:
            print("  errors by kind:  " + ", ".join(f"{k} {v}" for k, v in sorted(errs.items(), key=lambda kv: str(kv[0]))))
        for m in metas:
            print(f"  section {m.get('section')}: wall {m.get('wall_s')} s of budget {m.get('budget_s')} s, "
                  f"records {m.get('records')}, errors {m.get('errors')}, skipped {m.get('skipped')}"
                  f"{' (DRY RUN: virtual wall = estimated real wall)' if m.get('dry_run') else ''}"
                  f"{' CONTEXT LOST' if m.get('context_lost') else ''}")
            if m.get("sub_wall_s"):
                print("    sub-sections (s): " + ", ".join(f"{k} {v}" for k, v in m["sub_wall_s"].items()))
            if m.get("skipped_groups"):
                print("    skipped: " + ", ".join(f"{k} x{v}" for k, v in m["skipped_groups"].items()))
            for e in (m.get("errors_first") or [])[:8]:
                print("    error: " + e[:200])
        headline(recs)
    for p in sorted(glob.glob(os.path.join(out, f"{tag}_*"))):
        if not p.endswith(".jsonl"):
            print(f"other file: {os.path.basename(p)} {os.path.getsize(p) / 1024:.0f} KiB")


def headline(recs):
    def fmt_us(s):
        return f"{s * 1e6:9.1f}" if isinstance(s, (int, float)) else "        -"
    att = [r for r in recs if r.get("kind") == "attention_backend" and "seconds" in r]
    if att:
        print("  attention (us) prefill B=1 MHA bf16, S x causal -> MATH FLASH EFF CUDNN:")
        for S in (1024, 4096, 8192):
            for c in (False, True):
                row = {r["backend"]: r["seconds"] for r in att if r["B"] == 1 and r["S_q"] == S and r["causal"] == c
                       and r["Hkv"] == r["Hq"] and r["dtype"] == "bf16"}
                print(f"    S={S:5d} c={int(c)}  " + " ".join(fmt_us(row.get(b)) for b in
                                                           ("MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION")))
    q = [r for r in recs if r.get("kind") == "quant_gemm" and "seconds" in r and r["N"] == 14336]
    if q:
        print("  quant gemm N=14336 K=4096 (us), M -> bf16 int4-fused int4-sep int8-eager fp8:")
        for M in (1, 16, 256, 1024):
            row = {r["impl"].split("+")[0] if r["weights"] != "int4" else r["dequant"]: r["seconds"]
                   for r in q if r["M"] == M}
            print(f"    M={M:5d} " + " ".join(fmt_us(row.get(k)) for k in
                                             ("cublas", "fused", "separate", "eager-cast-mul", "scaled_mm")))
    pc = [r for r in recs if r.get("kind") == "power_cap_run" and "seconds" in r]
    for r in pc:
        print(f"  power {r['case']}: start {r['seconds_start'] * 1e3:.3f} ms -> steady {r['seconds'] * 1e3:.3f} ms "
              f"per call, steady clock {r.get('avg_sm_clock_mhz')}, power {r.get('avg_power_w')}, "
              f"throttled {r.get('throttled_fraction')}")
    en = [r for r in recs if r.get("kind") == "energy" and "energy_j" in r]
    for r in en:
        jpc = r.get("joules_per_call")
        print(f"  energy {r['case']:32s} {r.get('avg_power_w') or 0:7.1f} W  "
              f"{(jpc if jpc is not None else float('nan')):10.4g} J/call  clock {r.get('avg_sm_clock_mhz')}  "
              f"src {r.get('energy_source')}")
    cl = [r for r in recs if r.get("kind") == "classroom" and "seconds" in r]
    if cl:
        chk = [f"{r['kernel']}:{r['check']}" for r in cl if r.get("check") not in (None, "none")]
        print(f"  classroom: {len(cl)} timed; checks: {', '.join(chk)}")
    wp = [r for r in recs if r.get("kind") in ("coalescing", "occupancy_bw") and "seconds" in r]
    if wp:
        print("  coalescing GB/s by stride: " + ", ".join(f"{r['stride_words']}:{r['useful_GBps']}" for r in wp
                                                         if r["kind"] == "coalescing"))
        print("  occupancy GB/s by warps/SM: " + ", ".join(f"{r['warps_per_sm']}:{r['GBps']}" for r in wp
                                                          if r["kind"] == "occupancy_bw"))


# ============================================================================ main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tag")
    ap.add_argument("section", choices=SECTIONS + ("summary",))
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--bin-dir", default="/tmp/hwsim_campaign")
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--end-epoch", type=float, default=None, help="wall-clock time (epoch s) the whole campaign must end by")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.bin_dir, exist_ok=True)
    if args.section == "summary":
        summary(args.out, args.tag)
        return 0
    ctx = Ctx(args)
    budget = args.budget
    if budget is None:
        env = os.environ.get(f"CAMPAIGN_BUDGET_{args.section.upper()}")
        budget = float(env) if env else TAG_BUDGETS.get((args.tag.split("_")[0], args.section),
                                                        DEFAULT_BUDGETS[args.section])
    t0 = time.time()
    ctx.log(f"section {args.section}, budget {budget:.0f} s, dry_run={ctx.dry}, resume={args.resume}, out={args.out}")
    try:
        if ctx.dry:
            ctx.setup_dry()
        elif args.section in ("fidelity", "energy"):
            ctx.setup_torch()
        else:
            ctx.setup_native()
    except Exception as e:  # noqa: BLE001
        # no device record possible: still leave a file that says why
        ctx.device_record = dict(kind="device", device="unknown", setup_error=f"{type(e).__name__}: {e}",
                                 tag=args.tag, section=args.section)
        sec = Section(ctx, args.section, budget, resume=args.resume)
        sec.error("setup", f"{args.section}/setup", {}, e)
        sec.close({"setup_failed": True})
        ctx.log(f"setup failed: {e}")
        return 1
    ctx.log(f"device {ctx.device}: {json.dumps(ctx.device_record)[:600]}")
    sec = Section(ctx, args.section, budget, resume=args.resume)
    if not ctx.dry and args.section == "fidelity":
        n = bump_clocks(1.0)
        ctx.log(f"clock bump: {n} 8192^3 bf16 matmuls in ~1 s")
    elif ctx.dry and args.section == "fidelity":
        ctx.clock.spend(1.5)
    extra = {}
    rc = 0
    try:
        if args.section == "fidelity":
            import fidelity
            extra = fidelity.run(ctx, sec) or {}
        elif args.section == "energy":
            import energy
            extra = energy.run(ctx, sec) or {}
        elif args.section == "classroom":
            import native
            native.spin(ctx, 0.5)
            extra = native.run_classroom(ctx, sec) or {}
        elif args.section == "warp":
            import native
            extra = native.run_warp(ctx, sec) or {}
    except ContextLost as e:
        ctx.log(f"CUDA context lost: {e}")
        extra = {"context_lost": True, "context_error": str(e)[:500]}
        rc = 3
    except Exception as e:  # noqa: BLE001
        import traceback
        ctx.log(traceback.format_exc())
        sec.error("section", f"{args.section}/exception", {}, e)
        rc = 1
    extra["process_wall_s"] = round(time.time() - t0, 1)
    meta = sec.close(extra)
    ctx.log(f"section {args.section} done: wall {meta['wall_s']} s (budget {budget:.0f}), records {meta['records']}, "
            f"errors {meta['errors']}, skipped {meta['skipped']}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
