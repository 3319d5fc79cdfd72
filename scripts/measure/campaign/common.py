"""Shared machinery of the hwsim measurement campaign (see README.md beside this file).

Nothing here imports torch at module level: `--dry-run` runs on a machine without torch or a GPU.
Pieces:
  Clock      wall clock, or a virtual one in dry-run (fake cases advance it by their estimated cost)
  Section    one output file <tag>_<section>.jsonl: device record first, then one record per case,
             flushed after every record; budget (deadline), sub-budgets, skip/error records, resume
  time_graph the timing method of shared/calibration/methods/measure_calibration.py and
             scripts/measure/measure_llm.py: warm-up, calls captured in a CUDA graph, replays timed
             with CUDA events, median seconds per call
  NVML       ctypes binding of libnvidia-ml.so.1 (energy counter, power, SM clock, event reasons)
  Sampler    background thread sampling NVML every ~25-50 ms
  Fake       the dry-run backend: plausible timings from a roofline and an estimate of each case's
             real wall-clock cost
"""
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time
import traceback

GiB = 1 << 30
MiB = 1 << 20

# Clock-event (throttle) reason bits of NVML (nvml.h: nvmlClocksEventReason*)
REASON_BITS = {
    0x1: "gpu_idle", 0x2: "applications_clocks", 0x4: "sw_power_cap", 0x8: "hw_slowdown",
    0x10: "sync_boost", 0x20: "sw_thermal", 0x40: "hw_thermal", 0x80: "hw_power_brake",
    0x100: "display_clocks",
}
POWER_CAP_MASK = 0x4 | 0x80
THERMAL_MASK = 0x20 | 0x40


class ContextLost(Exception):
    """The CUDA context is unusable (a sticky error): the section must stop; run.sh resumes it."""


# ----------------------------------------------------------------------------- clock and log
class Clock:
    def __init__(self, virtual=False):
        self.virtual = virtual
        self.t = time.time()

    def now(self):
        return self.t if self.virtual else time.time()

    def sleep(self, s):
        if self.virtual:
            self.t += max(0.0, s)
        else:
            time.sleep(max(0.0, s))

    def spend(self, s):
        """Dry-run: a fake case costs this much wall time."""
        if self.virtual:
            self.t += max(0.0, s)


class Logger:
    def __init__(self, tag, section, clock):
        self.tag, self.section, self.clock = tag, section, clock
        self.t0 = clock.now()

    def __call__(self, *a):
        print(f"[{self.tag} {self.section} {self.clock.now() - self.t0:7.1f}s]", *a, flush=True)


def sanitize(x):
    """JSON-safe: NaN/inf -> None (nlohmann::json, which hwsim validate uses, rejects NaN)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {str(k): sanitize(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [sanitize(v) for v in x]
    if isinstance(x, (str, int, bool)) or x is None:
        return x
    try:  # numpy / torch scalars
        return sanitize(x.item())
    except Exception:  # noqa: BLE001
        return str(x)


def device_id(name):
    """h100_sxm / h200_sxm ..., as in the shared calibration file and data/measurements."""
    n = (name or "").upper()
    if "H200" in n:
        return "h200_nvl" if "NVL" in n else "h200_sxm"
    if "H100" in n:
        if "PCIE" in n:
            return "h100_pcie"
        return "h100_nvl" if "NVL" in n else "h100_sxm"
    return (name or "unknown").lower().replace(" ", "_")


def smi_query(fields, timeout=20):
    """nvidia-smi --query-gpu: dict field -> string, or None."""
    try:
        p = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            return None
        vals = [v.strip() for v in p.stdout.strip().split("\n")[0].split(",")]
        return dict(zip(fields.split(","), vals))
    except Exception:  # noqa: BLE001
        return None


SMI_FIELDS = ("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,"
              "clocks.applications.graphics,power.limit,power.max_limit,memory.total,pstate,temperature.gpu")


def package_versions():
    """torch / CUDA / cuDNN / Triton versions without importing torch (classroom, warp sections)."""
    out = {"python": sys.version.split()[0]}
    try:
        from importlib import metadata
        for pkg, key in [("torch", "torch"), ("triton", "triton"), ("nvidia-cudnn-cu13", "cudnn_pkg"),
                         ("cupy-cuda13x", "cupy"), ("numpy", "numpy")]:
            try:
                out[key] = metadata.version(pkg)
            except Exception:  # noqa: BLE001
                pass
    except Exception:  # noqa: BLE001
        pass
    try:
        import importlib.util
        import re
        spec = importlib.util.find_spec("torch")
        if spec and spec.origin:
            txt = open(os.path.join(os.path.dirname(spec.origin), "version.py")).read()
            m = re.search(r"cuda\s*(?::\s*[^=]+)?=\s*'([^']+)'", txt)
            if m:
                out["cuda"] = m.group(1)
    except Exception:  # noqa: BLE001
        pass
    return out


# ----------------------------------------------------------------------------- section file
class Section:
    """One output file and the budget of one section.

    Records: {"kind", "device", "case_id", ...}; errors {"kind", "case_id", "error", ...};
    skipped cases {"kind": "skipped", "case_kind", "case_id", "reason", ...}. With resume=True the
    file is appended to and cases whose case_id it already holds are not run again.
    """

    def __init__(self, ctx, name, budget_s, resume=False):
        self.ctx, self.name, self.clock, self.log = ctx, name, ctx.clock, ctx.log
        self.path = os.path.join(ctx.out, f"{ctx.tag}_{name}.jsonl")
        self.done = set()
        state_path = os.path.join(ctx.state_dir, f"{ctx.tag}_{name}.start")
        start = self.clock.now()
        fresh = True
        if resume and os.path.exists(self.path):
            fresh = False
            for line in open(self.path):
                try:
                    r = json.loads(line)
                except Exception:  # noqa: BLE001
                    continue
                if r.get("case_id"):
                    self.done.add(r["case_id"])
            try:
                start = float(open(state_path).read().strip())
            except Exception:  # noqa: BLE001
                pass
            self.log(f"resume: {len(self.done)} cases already in {self.path}")
        else:
            try:
                with open(state_path, "w") as f:
                    f.write(repr(start))
            except Exception:  # noqa: BLE001
                pass
        self.f = open(self.path, "w" if fresh else "a")
        self.start = start
        self.budget = budget_s
        self.deadline = start + budget_s
        if ctx.end_epoch:
            self.deadline = min(self.deadline, ctx.end_epoch - 5.0)
        self.slack = 0.0
        self.sub_deadline = self.deadline
        self.counts = {"records": 0, "errors": 0, "skipped": 0}
        self.errors = []
        self.skipped_groups = {}
        self.sub_times = {}
        if fresh:
            self.write(dict(ctx.device_record))

    # --- writing
    def write(self, r):
        self.f.write(json.dumps(sanitize(r), allow_nan=False) + "\n")
        self.f.flush()

    def rec(self, kind, **fields):
        r = {"kind": kind, "device": self.ctx.device}
        r.update(fields)
        self.write(r)
        self.counts["records"] += 1
        return r

    def error(self, kind, case_id, fields, err):
        msg = err if isinstance(err, str) else f"{type(err).__name__}: {err}"
        msg = msg.strip().replace("\n", " | ")[:600]
        r = {"kind": kind, "device": self.ctx.device, "case_id": case_id}
        r.update(fields)
        r["error"] = msg
        self.write(r)
        self.counts["errors"] += 1
        self.errors.append(f"{case_id}: {msg[:160]}")
        self.log(f"ERROR {case_id}: {msg[:300]}")

    def skip(self, kind, case_id, fields, reason):
        r = {"kind": "skipped", "device": self.ctx.device, "case_kind": kind, "case_id": case_id,
             "reason": reason}
        r.update(fields)
        self.write(r)
        self.counts["skipped"] += 1
        grp = case_id.split("/")[0] + ": " + reason.split(":")[0]
        self.skipped_groups[grp] = self.skipped_groups.get(grp, 0) + 1

    # --- budget
    def remaining(self):
        return min(self.deadline, self.sub_deadline) - self.clock.now()

    def sub(self, name, nominal_s):
        return _Sub(self, name, nominal_s)

    # --- cases
    def run_case(self, kind, case_id, fields, body, need_s=0.0, fake=None):
        """Run body() (real) or fake() (dry-run) unless the budget is spent; write the record.

        body() returns a dict of measured fields merged into the record, or a list of complete
        records (dicts with 'kind') to write as they are. Returns the written record(s) or None.
        """
        if case_id in self.done:
            return None
        if self.clock.now() + need_s > min(self.deadline, self.sub_deadline):
            self.skip(kind, case_id, fields, "budget")
            return None
        if self.ctx.dry and case_id == os.environ.get("CAMPAIGN_DRY_LOSE_CONTEXT_AT") and not self.done:
            self.error(kind, case_id, fields, "dry-run: simulated sticky CUDA error")
            raise ContextLost("dry-run: simulated at " + case_id)
        try:
            out = fake() if self.ctx.dry else body()
        except ContextLost:
            raise
        except Exception as e:  # noqa: BLE001
            if not self.ctx.dry:
                tb = traceback.format_exc()
                self.log(tb[-1500:])
            self.error(kind, case_id, fields, e)
            self.ctx.after_error()
            return None
        if isinstance(out, list):
            for r in out:
                r2 = {"kind": r.get("kind", kind), "device": self.ctx.device, "case_id": case_id}
                r2.update(r)
                self.write(r2)
                self.counts["records"] += 1
            return out
        r = {"kind": kind, "device": self.ctx.device, "case_id": case_id}
        r.update({k: v for k, v in fields.items() if k not in ("kind", "device")})
        r.update({k: v for k, v in (out or {}).items() if k not in ("kind", "device")})
        self.write(r)
        self.counts["records"] += 1
        return r

    def prepare(self, kind, case_id, fields, body, fake=None):
        """Shared set-up for several cases (weights, quantisation). Returns its state, or None when it
        failed (an error record is written) or the budget is spent."""
        if self.ctx.dry:
            self.clock.spend(0.2)
            return dict(fake or {})
        if self.clock.now() > min(self.deadline, self.sub_deadline):
            return None
        try:
            return body()
        except ContextLost:
            raise
        except Exception as e:  # noqa: BLE001
            self.log(traceback.format_exc()[-1500:])
            self.error(kind, case_id, fields, e)
            self.ctx.after_error()
            return None

    def close(self, extra=None):
        meta = {"kind": "section_meta", "device": self.ctx.device, "section": self.name,
                "budget_s": self.budget, "wall_s": round(self.clock.now() - self.start, 2),
                "dry_run": self.ctx.dry, "sub_wall_s": self.sub_times, "skipped_groups": self.skipped_groups,
                "errors_first": self.errors[:40]}
        meta.update(self.counts)
        if extra:
            meta.update(extra)
        self.write(meta)
        self.f.close()
        return meta


class _Sub:
    """A sub-budget: deadline = min(section deadline, now + nominal + slack left by earlier subs)."""

    def __init__(self, sec, name, nominal):
        self.sec, self.name, self.nominal = sec, name, nominal

    def __enter__(self):
        s = self.sec
        self.t0 = s.clock.now()
        s.sub_deadline = min(s.deadline, self.t0 + self.nominal + s.slack)
        s.log(f"--- {s.name}.{self.name}: {s.sub_deadline - self.t0:.0f} s")
        return self

    def __exit__(self, et, ev, tb):
        s = self.sec
        now = s.clock.now()
        s.slack = max(0.0, s.sub_deadline - now)
        s.sub_times[self.name] = round(now - self.t0, 2)
        s.log(f"--- {s.name}.{self.name} done in {now - self.t0:.1f} s (slack {s.slack:.1f} s)")
        s.sub_deadline = s.deadline
        if et is not None and et is not ContextLost:
            s.error("subsection", f"{self.name}/exception", {}, ev)
            s.ctx.after_error()
            return True  # the section goes on with its next subsection
        return False


# ----------------------------------------------------------------------------- timing (torch)
def nbuf_for(bytes_each, l2_bytes, cap=256):
    """Buffer sets to rotate so that their total is >= max(512 MiB, 8 x L2): operands from HBM."""
    floor = max(512 * MiB, 8 * (l2_bytes or 50 * MiB))
    return max(1, min(cap, math.ceil(floor / max(bytes_each, 1))))


def choose_iters(t_est, nb, target=0.005, max_iters=2000):
    """Calls per graph: enough for ~5 ms per replay, >= 20 for short calls, >= nb when rotating."""
    lo = 20 if t_est < 1e-3 else 3
    it = max(lo, min(max_iters, math.ceil(target / max(t_est, 1e-7))))
    return max(it, nb)


def time_graph(fn, nb=1, warm=2, target=0.005, reps=None, max_iters=2000):
    """Median GPU seconds per fn(i) call (fn(i) uses buffer set i % nb).

    As measure_calibration.py / measure_llm.py: warm-up on a side stream, `iters` calls captured in
    one CUDA graph, the graph replayed `reps` times, each replay timed with CUDA events. iters is
    chosen from an eager estimate so a replay lasts ~5 ms (>= 20 calls for short ones, >= nb so a
    replay touches every rotated buffer set).
    """
    import torch
    cur = torch.cuda.current_stream()
    s = torch.cuda.Stream()
    s.wait_stream(cur)
    with torch.cuda.stream(s):
        for i in range(warm):
            fn(i % nb)
    cur.wait_stream(s)
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    for i in range(2):
        fn((warm + i) % nb)
    b.record()
    b.synchronize()
    t_est = a.elapsed_time(b) / 1e3 / 2
    iters = choose_iters(t_est, nb, target, max_iters)
    torch.cuda.empty_cache()  # the eager warm-up's blocks would otherwise double the peak
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(iters):
            fn(i % nb)
    g.replay()
    torch.cuda.synchronize()
    if reps is None:
        reps = 7 if t_est * iters < 0.05 else 5
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / 1e3 / iters)
    del g
    return dict(seconds=statistics.median(ts), tmin=min(ts), tmax=max(ts), iters=iters, reps=reps,
                t_eager_est=t_est)


def measure_case(rec, build, kernels_of):
    """Prints rec as one JSON line with the case's kernels (kernels_of(fn)), its GPU seconds per call
    (time_graph), the bytes it moves and GB/s; build() returns (fn, bytes moved, buffer sets). A
    failed case prints its error instead, so one failure does not stop a probe."""
    import torch
    try:
        fn, moved, nb = build()
        rec["kernels"] = kernels_of(fn)
        rec.update(time_graph(fn, nb=nb))
        rec.update(bytes=moved, buffers=nb, gbps=moved / rec["seconds"] / 1e9)
    except Exception as e:  # noqa: BLE001 - one failed case must not stop the rest
        rec["error"] = repr(e)[:300]
    print(json.dumps(rec), flush=True)
    torch.cuda.empty_cache()


def bump_clocks(seconds=1.0):
    """~seconds of 8192^3 bf16 matmuls to raise the clocks before the first timed case."""
    import torch
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    t0 = time.time()
    n = 0
    while time.time() - t0 < seconds:
        for _ in range(5):
            a @ a
            n += 1
        torch.cuda.synchronize()
    del a
    torch.cuda.empty_cache()
    return n


# ----------------------------------------------------------------------------- NVML (ctypes)
class NVML:
    """The few NVML calls the campaign needs, through ctypes on libnvidia-ml.so.1."""
    CLOCK_SM, CLOCK_MEM = 1, 2

    def __init__(self, index=0):
        import ctypes
        self.ct = ctypes
        self.lib = ctypes.CDLL("libnvidia-ml.so.1")
        rc = self._call("nvmlInit_v2")
        if rc != 0:
            rc = self._call("nvmlInit")
        if rc != 0:
            raise RuntimeError(f"nvmlInit failed ({rc})")
        self.h = ctypes.c_void_p()
        rc = self._call("nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(index), ctypes.byref(self.h))
        if rc != 0:
            rc = self._call("nvmlDeviceGetHandleByIndex", ctypes.c_uint(index), ctypes.byref(self.h))
        if rc != 0:
            raise RuntimeError(f"nvmlDeviceGetHandleByIndex failed ({rc})")
        self.reasons_fn = None
        for name in ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"):
            if hasattr(self.lib, name):
                v = ctypes.c_ulonglong()
                if getattr(self.lib, name)(self.h, ctypes.byref(v)) == 0:
                    self.reasons_fn = name
                    break
        self.energy_supported = self.energy_mj() is not None

    def _call(self, name, *args):
        f = getattr(self.lib, name, None)
        if f is None:
            return -1
        return f(*args)

    def _get(self, name, ctype, *pre):
        v = ctype()
        rc = self._call(name, self.h, *pre, self.ct.byref(v))
        return v.value if rc == 0 else None

    def energy_mj(self):
        return self._get("nvmlDeviceGetTotalEnergyConsumption", self.ct.c_ulonglong)

    def power_w(self):
        v = self._get("nvmlDeviceGetPowerUsage", self.ct.c_uint)
        return None if v is None else v / 1000.0

    def sm_clock(self):
        return self._get("nvmlDeviceGetClockInfo", self.ct.c_uint, self.ct.c_int(self.CLOCK_SM))

    def mem_clock(self):
        return self._get("nvmlDeviceGetClockInfo", self.ct.c_uint, self.ct.c_int(self.CLOCK_MEM))

    def reasons(self):
        if not self.reasons_fn:
            return None
        return self._get(self.reasons_fn, self.ct.c_ulonglong)

    def temp_c(self):
        return self._get("nvmlDeviceGetTemperature", self.ct.c_uint, self.ct.c_int(0))

    def power_limit_w(self):
        v = self._get("nvmlDeviceGetEnforcedPowerLimit", self.ct.c_uint)
        return None if v is None else v / 1000.0

    def info(self):
        return dict(energy_counter=self.energy_supported, reasons_fn=self.reasons_fn,
                    power_limit_w=self.power_limit_w(), sm_clock_mhz=self.sm_clock(),
                    mem_clock_mhz=self.mem_clock(), power_w=self.power_w(), temp_c=self.temp_c())


class FakeNVML:
    """Dry-run NVML: an H100 drawing ~300 W at 1980 MHz, energy counter advancing on the virtual clock."""

    energy_supported = True
    reasons_fn = "fake"

    def __init__(self, clock):
        self.clock = clock
        self.t0 = clock.now()

    def energy_mj(self):
        return int((self.clock.now() - self.t0) * 300.0 * 1000)

    def power_w(self):
        return 300.0

    def sm_clock(self):
        return 1980

    def mem_clock(self):
        return 2619

    def reasons(self):
        return 0

    def temp_c(self):
        return 45

    def power_limit_w(self):
        return 700.0

    def info(self):
        return dict(energy_counter=True, reasons_fn="fake", power_limit_w=700.0)


class Sampler:
    """Background thread: (t, sm_clock_mhz, power_w, reasons, temp_c) every `period` seconds."""

    def __init__(self, nvml, period=0.025, fake_clock=None):
        self.nvml, self.period, self.fake_clock = nvml, period, fake_clock
        self.samples = []
        self._stop = threading.Event()
        self._th = None

    def start(self):
        if self.fake_clock is not None:
            return self
        self._th = threading.Thread(target=self._run, daemon=True)
        self._th.start()
        return self

    def _run(self):
        n = self.nvml
        while not self._stop.is_set():
            t = time.time()
            try:
                self.samples.append((t, n.sm_clock(), n.power_w(), n.reasons(), n.temp_c()))
            except Exception:  # noqa: BLE001
                pass
            self._stop.wait(self.period)

    def stop(self):
        self._stop.set()
        if self._th is not None:
            self._th.join(timeout=2)

    def fake_fill(self, t0, t1, clock_mhz=1980, power=300.0, reasons=0):
        t = t0
        while t < t1:
            self.samples.append((t, clock_mhz, power, reasons, 45))
            t += self.period

    def window(self, t0, t1):
        return [s for s in self.samples if t0 <= s[0] <= t1]

    def stats(self, t0, t1):
        w = self.window(t0, t1)
        clk = [s[1] for s in w if s[1] is not None]
        pw = [s[2] for s in w if s[2] is not None]
        rs = [s[3] for s in w if s[3] is not None]
        tc = [s[4] for s in w if s[4] is not None]
        hist = {}
        for r in rs:
            hist[hex(r)] = hist.get(hex(r), 0) + 1
        return dict(
            samples=len(w),
            avg_sm_clock_mhz=statistics.mean(clk) if clk else None,
            median_sm_clock_mhz=statistics.median(clk) if clk else None,
            min_sm_clock_mhz=min(clk) if clk else None,
            max_sm_clock_mhz=max(clk) if clk else None,
            sampled_power_w=statistics.mean(pw) if pw else None,
            max_power_w=max(pw) if pw else None,
            throttled_fraction=(sum(1 for r in rs if r & POWER_CAP_MASK) / len(rs)) if rs else None,
            thermal_fraction=(sum(1 for r in rs if r & THERMAL_MASK) / len(rs)) if rs else None,
            reasons_hist=hist,
            max_temp_c=max(tc) if tc else None,
        )

    def integrate_j(self, t0, t1):
        w = [(s[0], s[2]) for s in self.window(t0, t1) if s[2] is not None]
        if len(w) < 2:
            return None
        e = 0.0
        for (ta, pa), (tb, pb) in zip(w, w[1:]):
            e += 0.5 * (pa + pb) * (tb - ta)
        # stretch to the full window
        span = w[-1][0] - w[0][0]
        return e * (t1 - t0) / span if span > 0 else None


def reasons_names(mask):
    return [n for b, n in REASON_BITS.items() if mask & b]


# ----------------------------------------------------------------------------- dry-run backend
class Fake:
    """Dry-run timings: a roofline (H100-like: bf16 700 TFLOP/s sustained, fp8 1200, tf32 350,
    fp32 50, HBM 3.0 TB/s, 3 us per kernel), and the wall-clock cost the real run would spend on a
    case (python/allocation overhead + warm-up + estimate + graph replays)."""

    PEAK = {"bf16": 700e12, "fp16": 700e12, "fp8": 1200e12, "fp8_e4m3": 1200e12, "tf32": 350e12,
            "fp32": 50e12, "int8": 1200e12, "int4": 700e12}
    HBM = 3.0e12

    def __init__(self, clock):
        self.clock = clock

    def seconds(self, flops=0.0, bytes_=0.0, dtype="bf16", kernels=1):
        return max(flops / self.PEAK.get(dtype, 700e12), bytes_ / self.HBM) + 3e-6 * kernels

    def timing(self, flops=0.0, bytes_=0.0, dtype="bf16", kernels=1, nb=1, overhead=0.12, **extra):
        t = self.seconds(flops, bytes_, dtype, kernels)
        iters = choose_iters(t, nb)
        reps = 7 if t * iters < 0.05 else 5
        self.clock.spend(overhead + (4 + iters * (1 + reps)) * t)
        r = dict(seconds=t, tmin=t * 0.99, tmax=t * 1.02, iters=iters, reps=reps, t_eager_est=t * 1.1)
        r.update(extra)
        return r
