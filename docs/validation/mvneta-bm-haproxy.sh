#!/usr/bin/env bash
# Regenerates docs/validation/mvneta-bm-haproxy.md and its plots: seed 000 (the hardware buffer manager on mvneta,
# haproxy on an Armada 388 Clearfog) and the BM commit's bridge figure. Needs python3 (to read the JSON results).
# Usage: docs/validation/mvneta-bm-haproxy.sh [DURATION] [SEEDS]   (default 2s of simulated time, 5 seeds; ~3 minutes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dur=${1:-2s}
seeds=${2:-5}
out="$here/mvneta-bm-haproxy.md"
file=pipelines/mvneta-bm-haproxy.pipeline
bridge=pipelines/mvneta-bridge-64.pipeline
profile=bundles/io.ringlab.driver.mvneta/src/main/resources/profiles/armada-388.profile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
./ringlab pools >/dev/null   # build first if needed

# json NAME FILE [ringlab run options...]: runs once, keeps the JSON result as $tmp/NAME.json
json() {
  local name=$1 f=$2; shift 2
  ./ringlab run "$f" --json "$tmp/$name.json" "$@" >/dev/null 2>&1 || { echo "run $name failed" >&2; ./ringlab run "$f" "$@" >&2; exit 1; }
}

# a copy of the pipeline whose profile is the Armada 388's with KEY=VALUE changed
variant() { # NAME KEY VALUE
  sed -E "s/^$2 = [^|]*\|/$2 = $3 |/" "$profile" > "$tmp/$1.profile"
  grep -q "^$2 = $3 |" "$tmp/$1.profile" || { echo "no key $2 in $profile" >&2; exit 1; }
  sed "s|^profile = armada-388|profile = $tmp/$1.profile|" "$file" > "$tmp/$1.pipeline"
}

for s in $(seq 1 "$seeds"); do
  json "sw-$s" "$file" --duration "$dur" --seed "$s" --set eth0.bm=false
  json "bm-$s" "$file" --duration "$dur" --seed "$s" --set eth0.bm=true
done
for c in 0 120 480; do
  variant "putbp-$c" hwbm.putBpCycles "$c"
  json "putbp-$c" "$tmp/putbp-$c.pipeline" --duration "$dur" --set eth0.bm=true
done
for cores in 0 1; do
  json "cores$cores-sw" "$file" --duration "$dur" --set eth0.bm=false --set "proxy.cores=$cores"
  json "cores$cores-bm" "$file" --duration "$dur" --set eth0.bm=true --set "proxy.cores=$cores"
done
# the kernel's split between the interrupt core and haproxy's cores (docs/models/haproxy.md "Fit"): each row refitted
# to 17,500/s without the BM; "half" puts half the kernel's work beyond the driver per frame and half per connection on
# haproxy's cores, "lump" is the former fit (no per-frame cost, everything in connectionCycles on haproxy's cores)
for bm in false true; do
  json "split-half-$bm" "$file" --duration "$dur" --set eth0.bm=$bm --set proxy.rxFrameCycles=3630 \
    --set proxy.txFrameCycles=3630 --set proxy.connectionCycles=89160
  json "split-lump-$bm" "$file" --duration "$dur" --set eth0.bm=$bm --set proxy.rxFrameCycles=0 \
    --set proxy.txFrameCycles=0 --set proxy.connectionCycles=149800
  json "split-half-long-$bm" "$file" --duration 1s --set eth0.bm=$bm --set load.responseBytes=1MiB \
    --set load.concurrency=8 --set proxy.rxFrameCycles=3630 --set proxy.txFrameCycles=3630 --set proxy.connectionCycles=89160
  json "split-lump-long-$bm" "$file" --duration 1s --set eth0.bm=$bm --set load.responseBytes=1MiB \
    --set load.concurrency=8 --set proxy.rxFrameCycles=0 --set proxy.txFrameCycles=0 --set proxy.connectionCycles=149800
done
for bm in false true; do
  json "long-$bm" "$file" --duration 1s --set eth0.bm=$bm --set load.responseBytes=1MiB --set load.concurrency=8
  json "bridge-$bm" "$bridge" --set eth0.bm=$bm --set eth1.bm=$bm
done
./ringlab run "$file" --duration "$dur" --set eth0.bm=false --series-interval 10ms \
  --plot "$here/mvneta-bm-haproxy-sw.png" --plot-series load.connPerSecond >/dev/null 2>&1
./ringlab run "$file" --duration "$dur" --set eth0.bm=true --series-interval 10ms \
  --plot "$here/mvneta-bm-haproxy-bm.png" --plot-series load.connPerSecond,pool:eth0.short.available >/dev/null 2>&1

python3 - "$tmp" "$seeds" "$dur" "$(git rev-parse --short HEAD)" "$(date -u +%Y-%m-%d)" > "$out" <<'PY'
import json, math, statistics, sys
tmp, seeds, dur, commit, day = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

def load(name):
    return json.load(open(f"{tmp}/{name}.json"))["elements"]

def m(e, element, metric, default=0.0):
    return e.get(element, {}).get(metric, default)

def per_conn(e, element, metric):
    return m(e, element, metric) / max(1.0, m(e, "proxy", "closed"))

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}

def ci(xs):
    n = len(xs)
    mean = statistics.fmean(xs)
    if n < 2:
        return mean, float("nan")
    return mean, T975.get(n - 1, 1.96) * statistics.stdev(xs) / math.sqrt(n)

sw = [load(f"sw-{s}") for s in range(1, seeds + 1)]
bm = [load(f"bm-{s}") for s in range(1, seeds + 1)]
rate_sw = [m(e, "load", "connPerSecond") for e in sw]
rate_bm = [m(e, "load", "connPerSecond") for e in bm]
ratios = [b / a for a, b in zip(rate_sw, rate_bm)]
diffs = [b - a for a, b in zip(rate_sw, rate_bm)]
msw, csw = ci(rate_sw)
mbm, cbm = ci(rate_bm)
mr, cr = ci(ratios)
md, cd = ci(diffs)
inside = 0.97 <= mr <= 0.999

print("# Validation: the hardware buffer manager on mvneta, haproxy on an Armada 388 (seed 000)")
print()
print(f"Generated by `docs/validation/mvneta-bm-haproxy.sh {dur} {seeds}` at commit {commit} on {day}.")
print("Scenario: `pipelines/mvneta-bm-haproxy.pipeline`: an `http-load` (64 HTTP/1.0 clients in a closed loop and the server,")
print("behind a gigabit switch) -> one mvneta port (`eth0`, the 2016 driver) -> `haproxy` (its kernel side in the port's")
print("NAPI poll on core 0, the kernel's TCP receive work there too, one haproxy process on each of the two Cortex-A9 cores)")
print("-> back out through the same port. Each")
print("connection: handshake, GET of an empty file, a 150-byte response, close: 9 frames in and 8 out, all under")
print("`rx_copybreak` (docs/models/haproxy.md). Profile `armada-388`. Headline: completed connections per second after a")
print(f"200 ms warm-up, over {dur} of simulated time.")
print()
print("Seed: 17,500 connections/s with the software refill, 17,300 with the BM (-1.1 %); the BM \"is expected to save CPU")
print("and improve cache efficiency\". Accepted: a BM/software ratio between 0.97 and 0.999, from the mechanism.")
print()
print("## Connection rate, BM against software refill")
print()
print("| seed | software refill, conn/s | BM, conn/s | BM / software |")
print("|---|---|---|---|")
for s, a, b in zip(range(1, seeds + 1), rate_sw, rate_bm):
    print(f"| {s} | {a:,.0f} | {b:,.0f} | {b / a:.4f} |")
print(f"| mean, 95 % CI (Student t, n = {seeds}) | {msw:,.0f} ± {csw:,.0f} | {mbm:,.0f} ± {cbm:,.0f} | {mr:.4f} ± {cr:.4f} |")
print()
print(f"Paired difference BM - software: {md:,.0f} ± {cd:,.0f} connections/s (95 % CI); ratio {mr:.4f}, band 0.97 to 0.999:"
      f" **{'inside' if inside else 'OUTSIDE'}**. The software rate is fitted (below); the BM rate is not: it follows from")
print("the mechanism with every cost fixed before the BM was run.")
print()
print("Where the difference comes from, per connection (seed 1):")
print()
a, b = sw[0], bm[0]
rows = [
    ("connections per second", m(a, "load", "connPerSecond"), m(b, "load", "connPerSecond"), ".0f"),
    ("CPU cycles per connection, both cores", m(a, "proxy", "cpuCyclesPerConnection"), m(b, "proxy", "cpuCyclesPerConnection"), ".0f"),
    ("frames received by the port", per_conn(a, "eth0", "rxPackets"), per_conn(b, "eth0", "rxPackets"), ".2f"),
    ("... of them copied (rx_copybreak)", per_conn(a, "eth0", "rxCopybreaks"), per_conn(b, "eth0", "rxCopybreaks"), ".2f"),
    ("BM put_bp writes (buffer back to the pool)", 0.0, per_conn(b, "pool:eth0.short", "putBp") + per_conn(b, "pool:eth0.long", "putBp"), ".2f"),
    ("driver register reads", per_conn(a, "eth0", "mmioReads"), per_conn(b, "eth0", "mmioReads"), ".2f"),
    ("driver register writes", per_conn(a, "eth0", "mmioWrites"), per_conn(b, "eth0", "mmioWrites"), ".2f"),
    ("RX refills by the driver (DMA maps)", per_conn(a, "eth0", "dmaMaps"), per_conn(b, "pool:eth0.long", "refills") - 2048 / max(1.0, m(b, "proxy", "closed")), ".3f"),
    ("driver cycles (eth0)", per_conn(a, "eth0", "cpuCycles"), per_conn(b, "eth0", "cpuCycles"), ".0f"),
    ("copy skb cache misses, core 0", per_conn(a, "pool:eth0.copy", "cacheMissesCore0"), per_conn(b, "pool:eth0.copy", "cacheMissesCore0"), ".2f"),
    ("core 0 L1d misses", per_conn(a, "cpu0", "l1dMisses"), per_conn(b, "cpu0", "l1dMisses"), ".2f"),
    ("core 0 cache stall cycles", per_conn(a, "cpu0", "cacheStallCycles"), per_conn(b, "cpu0", "cacheStallCycles"), ".0f"),
]
print("| per connection | software refill | BM | BM - software |")
print("|---|---|---|---|")
for label, x, y, f in rows:
    print(f"| {label} | {x:{f}} | {y:{f}} | {y - x:+{f}} |")
print()
print("Every frame of a short connection is under 256 bytes, so both paths copy it into a new small skb and keep the DMA")
print("buffer. With the software refill the buffer simply stays in its descriptor; with the BM the driver hands it back to")
print("the pool with `mvneta_bm_pool_put_bp`, one register write (strongly ordered on the Armada 38x). No frame goes up")
print("whole, so the BM takes no refill work off the driver: it adds about nine register writes per connection and saves")
print("nothing. Whether the short pool's 2048 buffers, cycling through the device's FIFO, also cost cache misses depends on")
print("the copies' skb heads: with the x86-64 heads of 232 bytes the model used before issue 17 the BM took 0.84 more copy-skb")
print("misses per connection; with the Armada's 176-byte heads (192-byte slab objects) the table shows no such difference.")
print("All of it is on core 0, the interrupt core, which the driver and the kernel's receive work make the bottleneck (core 0"
      f" busy {m(a, 'cpu0', 'utilisationPercent'):.1f} %, core 1 {m(a, 'cpu1', 'utilisationPercent'):.1f} % without the BM), so the")
print("extra cycles cost the rate in proportion to core 0's cycles per connection, not to both cores'. **So the model does not agree with the")
print("seed's expectation that the BM saves CPU in this test: it costs CPU here, and that is what lowers the rate.** Nor")
print("does it save CPU where frames go up whole (the long transfers below): `mvneta_rx_hwbm` still allocates and maps the")
print("replacement buffer itself (`hwbm_pool_refill`), as the software path does, and hands it over with a register write")
print("where the software path writes a descriptor in cached memory (the Armada 38x's DMA is I/O coherent).")
print()
print("## How the ratio depends on the put_bp cost")
print()
print("The register write's cost is the one constant the BM's effect rests on, and it is borrowed (150 ns per register")
print("access measured on an i.MX Cortex-A9, docs/research/armada-costs.md): no Armada 38x figure exists. Seed 1:")
print()
print("| hwbm.putBpCycles | BM conn/s | BM / software |")
print("|---|---|---|")
base = m(sw[0], "load", "connPerSecond")
for c in (0, 120):
    e = load(f"putbp-{c}")
    print(f"| {c} | {m(e, 'load', 'connPerSecond'):,.0f} | {m(e, 'load', 'connPerSecond') / base:.4f} |")
print(f"| 240 (the profile) | {m(bm[0], 'load', 'connPerSecond'):,.0f} | {m(bm[0], 'load', 'connPerSecond') / base:.4f} |")
e = load("putbp-480")
print(f"| 480 | {m(e, 'load', 'connPerSecond'):,.0f} | {m(e, 'load', 'connPerSecond') / base:.4f} |")
print()
pts = [(0, m(load("putbp-0"), "load", "connPerSecond") / base), (120, m(load("putbp-120"), "load", "connPerSecond") / base),
       (240, m(bm[0], "load", "connPerSecond") / base), (480, m(load("putbp-480"), "load", "connPerSecond") / base)]
seedw = None
for (c0, r0), (c1, r1) in zip(pts, pts[1:]):
    if r0 >= 0.9886 >= r1 and r0 != r1:
        seedw = c0 + (c1 - c0) * (r0 - 0.9886) / (r0 - r1)
print("With a free write the ratio is the cache effect alone. The seed's 17,300 / 17,500 = 0.9886 corresponds to a write"
      + (f" of about {seedw:.0f} cycles ({seedw / 1.6:.0f} ns at 1.6 GHz), against the borrowed 240." if seedw is not None
         else " outside the range of this table."))
print()
print("## Where haproxy runs")
print()
print("The seed does not say how haproxy was run. The scenario assumes two processes (nbproc 2), one per core, so that the")
print("driver's work is on the bottleneck, which the seed's own result implies (a change in the driver changed the rate).")
print("With one process the outcome depends on whether it shares the interrupt core (connectionCycles unchanged, so these")
print("rows are not fitted to 17,500):")
print()
print("| haproxy processes on | software conn/s | BM conn/s | BM / software |")
print("|---|---|---|---|")
print(f"| cores 0 and 1 (the scenario) | {m(sw[0], 'load', 'connPerSecond'):,.0f} | {m(bm[0], 'load', 'connPerSecond'):,.0f} | {m(bm[0], 'load', 'connPerSecond') / m(sw[0], 'load', 'connPerSecond'):.4f} |")
for cores, label in (("0", "core 0 only (with the interrupts)"), ("1", "core 1 only (interrupts on core 0)")):
    x, y = load(f"cores{cores}-sw"), load(f"cores{cores}-bm")
    rx, ry = m(x, "load", "connPerSecond"), m(y, "load", "connPerSecond")
    print(f"| {label} | {rx:,.0f} | {ry:,.0f} | {ry / rx:.4f} |")
print()
for cores in ("0", "1"):
    x = load(f"cores{cores}-sw")
    print(f"- haproxy on core {cores} only: core 0 busy {m(x, 'cpu0', 'utilisationPercent'):.1f} %, core 1"
          f" {m(x, 'cpu1', 'utilisationPercent'):.1f} % without the BM.")
print()
print("The port's interrupt, its NAPI poll and the kernel's receive work stay on core 0 wherever haproxy runs; the BM's extra")
print("writes cost the rate wherever core 0 is the bottleneck.")
print()
print("## How the result depends on the kernel's split")
print()
print("No per-segment TCP cost for an ARMv7 CPU was found, so where the kernel's work runs rests on an assumption")
print("(docs/models/haproxy.md, \"Fit\"): by default haproxy's sizing notes' 85 % kernel share, driver included, and the same")
print("kernel cost for each of a connection's 17 frames, charged in the softirq on core 0 for a received frame and on the")
print("sending core for a sent one. Each row below is refitted to 17,500/s without the BM (seed 1):")
print()
print("| split | tcp.*SegmentCycles | haproxy.connectionCycles | software conn/s | BM conn/s | BM / software | core 0 / core 1 busy, % | 1 MB transfers: BM / software goodput, core 0 busy % |")
print("|---|---|---|---|---|---|---|---|")
for label, name, seg, conn in (("every kernel cycle beyond the driver per frame (the profile)", None, 5800, 22370),
                               ("half per frame, half per connection on haproxy's cores", "split-half", 3630, 89160),
                               ("none per frame: all in connectionCycles (the former fit)", "split-lump", 0, 149800)):
    x, y = (sw[0], bm[0]) if name is None else (load(f"{name}-false"), load(f"{name}-true"))
    lx, ly = (load("long-false"), load("long-true")) if name is None else (load(f"{name}-long-false"), load(f"{name}-long-true"))
    rx_, ry_ = m(x, "load", "connPerSecond"), m(y, "load", "connPerSecond")
    print(f"| {label} | {seg:,} | {conn:,} | {rx_:,.0f} | {ry_:,.0f} | {ry_ / rx_:.4f} |"
          f" {m(x, 'cpu0', 'utilisationPercent'):.0f} / {m(x, 'cpu1', 'utilisationPercent'):.0f} |"
          f" {m(ly, 'load', 'goodputMbitPerSecond') / m(lx, 'load', 'goodputMbitPerSecond'):.4f},"
          f" {m(lx, 'cpu0', 'utilisationPercent'):.0f} |")
print()
print("The more of the kernel's work runs on core 0, the more core 0 alone limits the rate and the more the BM's writes,")
print("also on core 0, cost: the ratio moves from the seed's -1.1 % (both cores saturated, the BM's cost spread over both)")
print("towards twice that (core 0 alone saturated). All three stay inside the band. The last column is the other half of")
print("the seed's observation, \"a very tiny performance drop which is more noticeable on short connections\": with every")
print("kernel cycle per frame, a 1448-byte segment costs core 0 as much as a SYN (the kernel's fixed per-connection work")
print("spread over frames), core 0 limits the long transfers too, and the BM costs them more than the short connections;")
print("with less of the kernel's work per frame the long transfers stay at the wire and the BM leaves them alone, as the seed")
print("found. The split is an assumption the seed does not settle by a figure; its qualitative remark favours the splits")
print("that leave less per frame.")
print()
print("## Long transfers")
print()
print("`--set load.responseBytes=1MiB --set load.concurrency=8`, 1 s: the server's response crosses the port twice, as")
print("full-sized segments; these go up whole, so here the BM's refill replaces the driver's.")
print()
print("| | software refill | BM |")
print("|---|---|---|")
x, y = load("long-false"), load("long-true")
def busy(e):
    return (m(e, "cpu0", "utilisationPercent"), m(e, "cpu1", "utilisationPercent"))
for label, f, g in (
    ("response goodput, Mbit/s", lambda e: m(e, "load", "goodputMbitPerSecond"), ".1f"),
    ("connections per second", lambda e: m(e, "load", "connPerSecond"), ".1f"),
    ("core 0 busy, %", lambda e: m(e, "cpu0", "utilisationPercent"), ".1f"),
    ("core 1 busy, %", lambda e: m(e, "cpu1", "utilisationPercent"), ".1f"),
    ("driver cycles per frame (eth0)", lambda e: m(e, "eth0", "cpuCyclesPerPacket"), ".0f"),
    ("DMA maps (driver refill or BM construct)", lambda e: m(e, "eth0", "dmaMaps") + m(e, "pool:eth0.long", "dmaMaps") + m(e, "pool:eth0.short", "dmaMaps"), ".0f"),
    ("BM refills, long pool", lambda e: m(e, "pool:eth0.long", "refills"), ".0f"),
    ("BM put_bp writes, all pools", lambda e: m(e, "pool:eth0.long", "putBp") + m(e, "pool:eth0.short", "putBp"), ".0f"),
    ("page fragments in use (pages)", lambda e: max(m(e, "pool:eth0.rx", "fragPagesInUse"), m(e, "pool:eth0.long", "fragPagesInUse")), ".0f"),
    ("core 0 L1d misses per frame", lambda e: m(e, "cpu0", "l1dMisses") / max(1.0, m(e, "eth0", "rxPackets") + m(e, "eth0", "txPackets")), ".2f"),
):
    print(f"| {label} | {f(x):{g}} | {f(y):{g}} |")
print()
ga, gb = m(x, "load", "goodputMbitPerSecond"), m(y, "load", "goodputMbitPerSecond")
lim = "core 0, nearly saturated by the driver and the kernel's per-frame receive work," if m(x, "cpu0", "utilisationPercent") > 95 else "the wire"
short_ratio = m(bm[0], "load", "connPerSecond") / m(sw[0], "load", "connPerSecond")
if abs(gb / ga - 1) < 0.01:
    verdict = "long transfers are unaffected, as the seed expects. The CPU is not: the BM costs core 0 more"
else:
    verdict = (f"the BM costs the long transfers {100 * (1 - gb / ga):.1f} %, more than the short connections'"
               f" {100 * (1 - short_ratio):.1f} %, where the seed found the drop \"more noticeable on short connections\":"
               " **a disagreement** that comes from the profile's split (the table above). The BM costs core 0 more")
print(f"The limit is {lim} either way: goodput {ga:.1f} vs {gb:.1f} Mbit/s (ratio {gb / ga:.4f}); {verdict},")
print("a register write per refilled buffer")
print("and per returned small one (the clients' ACKs), and its long pool's 2048 buffers in the device's FIFO pin many more")
print("pages than the software ring's 128 (more misses per frame). The BM commit reports the opposite for a related test")
print("(bridging 1500-byte frames at line rate: CPU load \"from around 25% without BM to 20% with BM\"); the model, built")
print("from the code as read, has no mechanism that would give it (see the bridge below). The kernel's per-frame cost is")
print("the fitted tcp.*SegmentCycles, assumed the same for a full-sized segment as for a small one (no figure for either),")
print("and haproxy's own per-segment cost is not sourced (0), so these loads rest on those assumptions.")
print()
print("## The BM commit's bridge figure")
print()
print("The BM commit (dc35a10f68d3) reports an Armada 388 bridging 64-byte frames: \"~555k packets with BM enabled vs ~535")
print("packets without BM\". `pipelines/mvneta-bridge-64.pipeline` runs it; the software figure is what the per-packet")
print("driver costs are fitted to.")
print()
x, y = load("bridge-false"), load("bridge-true")
rx, ry = m(x, "sink", "rxMpps") * 1000, m(y, "sink", "rxMpps") * 1000
print("| | software refill | BM | published |")
print("|---|---|---|---|")
print(f"| forwarded kpps | {rx:.1f} (fitted) | {ry:.1f} | 535 / 555 |")
print(f"| eth0 cycles per packet | {m(x, 'eth0', 'cpuCyclesPerPacket'):.0f} | {m(y, 'eth0', 'cpuCyclesPerPacket'):.0f} | |")
print()
print(f"**The model does not reproduce the BM's gain here ({ry / rx:.3f} against 1.037).** A 64-byte frame is under")
print("`rx_copybreak` on both paths (v4.6 `mvneta_rx_swbm` and `mvneta_rx_hwbm` as read, docs/research/mvneta-armada.md):")
print("the software path leaves the buffer in its descriptor and the BM path returns it with a register write, so the code")
print("as read does strictly more work with the BM. What could make the hardware faster (a posted rather than a stalling")
print("write to the BM's SRAM, a cheaper descriptor return, the driver's RX descriptor writes in software mode that the")
print("model does not charge) is not in any source in hand. This stays an open disagreement, not something to fit.")
print("The two published BM figures pull the write's cost in opposite directions: a free write would leave the haproxy")
print(f"ratio at {m(load('putbp-0'), 'load', 'connPerSecond') / base:.4f} (the table above), outside the seed's band, and no write cost makes the bridge faster with the")
print("BM. So the seed's -1.1 % and the commit's +3.7 % cannot both come from the put_bp write; the bridge needs a cost in")
print("the software path that the 2016 code as read does not show.")
print()
print("## Plots")
print()
print("Running connection rate (after the warm-up), software refill, seed 1:")
print()
print("![software refill](mvneta-bm-haproxy-sw.png)")
print()
print("BM, with the short pool's buffers held by the device:")
print()
print("![BM](mvneta-bm-haproxy-bm.png)")
print()
print("## Constants")
print()
print("Sourced (docs/models/mvneta.md, docs/models/hwbm.md, docs/research/mvneta-armada.md, docs/research/armada-costs.md):")
print("RX ring 128, TX ring 532, rx_copybreak 256, BM pools 2048 buffers, short packets 256 B, RX coalescing 32 frames /")
print("100 us, an interrupt per sent frame, the caches of a Cortex-A9 (32 KB L1s, 32-byte lines) and 7-cpu's A9 latencies.")
print()
print("Borrowed or assumed:")
print("- `mmio.readCycles` = `mmio.writeCycles` = `hwbm.putBpCycles` = 240: 150 ns per register access measured on an i.MX")
print("  Cortex-A9 (FreeBSD rS315589) at 1.6 GHz; the Armada 38x maps its registers strongly ordered, so each access")
print("  waits for completion.")
print("- `dma.mapCycles` = 20: `dma_map_single` with `arm_coherent_dma_ops` is address arithmetic (code read, not measured).")
print("- Slab costs: the i7-4790K's cycle counts (no ARMv7 figure found); page-fragment costs 0.")
print("- The L2 size (1 MB) and the 1.6 GHz clock: not checked against a datasheet.")
print("- haproxy as two processes, one per core; the client's request 100 B, the response headers 150 B.")
print()
print("**Fitted** (each to one published figure, with the BM off):")
print("- `mvneta.rxPacketCycles` = `mvneta.txPacketCycles` = 1100 (equal split assumed): the bridge's 535 kpps without the")
print("  BM; they include the bridge's own work.")
print("- `tcp.rxSegmentCycles` = `tcp.txSegmentCycles` = 5,800 and `haproxy.connectionCycles` = 22,370, together, to seed")
print("  000's 17,500 connections/s without the BM, with the split assumed (haproxy's notes: 85 % of a close-mode proxy's CPU")
print("  is the kernel's, driver included; the kernel's cost the same for each of the 17 frames): 22,370 = 0.15 / 0.85 x")
print("  (28,134 driver cycles per connection + 17 x 5,800, rounded). Before, one constant (149,800 per connection, on haproxy's")
print("  cores) held all of it, the kernel's receive work included (the table above, last row).")
PY
echo "wrote $out"
