#!/usr/bin/env python3
"""A storm of install/run/uninstall cycles in one `ringlab shell` (issue 15, section 3): each cycle copies the sample
ixgbe driver's jar into the shell's plugins folder, runs samples/ixgbe/ixgbe.pipeline for a simulated minute and deletes
the jar while it runs, so that the bundle's removal ends the run. After the cycles it forces a full GC in the shell's JVM
(jcmd GC.run) and prints the heap in use and the PacketBuffer objects still reachable; a run ended by its bundle's
removal must keep its result, not its simulation.

Usage: tools/shell-storm.py [CYCLES]   (from the checkout, after a build: app/target/shell.jar and
samples/ixgbe/target/ixgbe-driver-1.0.0.jar)
"""
import os, re, shutil, subprocess, sys, tempfile, threading, time, queue

cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 30
home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
java = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java")
jar = os.path.join(home, "samples/ixgbe/target/ixgbe-driver-1.0.0.jar")
plugins = tempfile.mkdtemp(prefix="ringlab-storm-")
shell = subprocess.Popen([java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                          "-Dfelix.fileinstall.dir=" + plugins, "-Dfelix.fileinstall.poll=100", "-jar",
                          os.path.join(home, "app/target/shell.jar")], cwd=os.path.join(home, "samples/ixgbe"),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
lines = queue.Queue()
threading.Thread(target=lambda: [lines.put(l) for l in shell.stdout], daemon=True).start()
marker = 0


def command(text, on_line=None, bound=120):
    """Runs a shell command; returns its output up to a marker echoed after it."""
    global marker
    marker += 1
    m = "--storm-%d--" % marker
    shell.stdin.write(text + "\necho " + m + "\n")
    shell.stdin.flush()
    out, deadline = [], time.time() + bound
    while time.time() < deadline:
        try:
            l = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if m in l and not l.strip().startswith("echo"):
            return "".join(out)
        out.append(l)
        if on_line:
            on_line(l)
    sys.exit("no answer to '%s' within %d s:\n%s" % (text, bound, "".join(out)))


def heap():
    subprocess.run(["jcmd", str(shell.pid), "GC.run"], capture_output=True, check=True)
    info = subprocess.run(["jcmd", str(shell.pid), "GC.heap_info"], capture_output=True, text=True).stdout
    used = re.search(r"used (\d+)K", info)
    histogram = subprocess.run(["jcmd", str(shell.pid), "GC.class_histogram"], capture_output=True, text=True).stdout
    buffers = 0
    for l in histogram.splitlines():
        if l.rstrip().endswith("io.ringlab.engine.kernel.PacketBuffer"):
            buffers = int(l.split()[1])
    if os.environ.get("STORM_HISTOGRAMS"):
        with open(os.environ["STORM_HISTOGRAMS"] + "." + str(marker), "w") as f:
            f.write(histogram)
    return int(used.group(1)) // 1024 if used else -1, buffers


try:
    command("ringlab:elements")
    print("before: heap %d MB in use after a full GC, %d PacketBuffer objects" % heap(), flush=True)
    ended = 0
    for i in range(cycles):
        dropped = shutil.copy(jar, plugins)
        deadline = time.time() + 60
        while "ixgbe" not in command("ringlab:elements"):
            if time.time() > deadline:
                sys.exit("cycle %d: the jar was never listed" % i)
        def remove_when_started(l, dropped=dropped):
            if "progress: started" in l and os.path.exists(dropped):
                os.remove(dropped)
        out = command("ringlab:run ixgbe.pipeline --duration 60s --progress", remove_when_started)
        if os.path.exists(dropped):
            os.remove(dropped)
        if "FAILED" in out and "the run ends" in out:
            ended += 1
        while "ixgbe" in command("ringlab:elements"):
            time.sleep(0.1)
    used, buffers = heap()
    print("after %d cycles (%d runs ended by the bundle's removal, %d shell command lines): heap %d MB in use after "
          "a full GC, %d PacketBuffer objects" % (cycles, ended, 2 * marker, used, buffers), flush=True)
finally:
    shell.kill()
    shutil.rmtree(plugins, ignore_errors=True)
