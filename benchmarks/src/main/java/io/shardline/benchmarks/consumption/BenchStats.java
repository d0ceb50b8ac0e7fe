package io.shardline.benchmarks.consumption;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What the consumption benchmarks measure besides rates: load average, CPU by process and thread kind, quantiles, JFR. */
final class BenchStats {

    private BenchStats() {
    }

    /** The 1-minute load average, from /proc/loadavg (Linux), or "?". */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** CPU time (ms) of this JVM so far (all threads, GC included). */
    static long jvmCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    }

    /** CPU time (ms) process {@code pid} used so far, from /proc (Linux); -1 when unknown. */
    static long processCpuMs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // clock ticks of 10 ms
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU time (ms) of this JVM's live threads so far, by kind (from /proc, Linux): event loops, handler threads, JIT
     * compilers, GC, other.
     */
    static Map<String, Long> threadCpuByKind() {
        Map<String, Long> ms = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim();
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
                    if (cpu > 0) {
                        ms.merge(kind(comm), cpu, Long::sum);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return ms;
        }
        return ms;
    }

    private static String kind(String comm) {
        if (comm.startsWith("vert.x-eventloo")) {
            return "event loops";
        }
        if (comm.startsWith("shardline-handl")) {
            return "handler threads";
        }
        if (comm.startsWith("C1 ") || comm.startsWith("C2 ")) {
            return "JIT";
        }
        if (comm.startsWith("G1") || comm.startsWith("GC ")) {
            return "GC";
        }
        return comm.replaceAll("[-0-9]+$", "");
    }

    /** {@code a - b} per kind, only the kinds that used CPU in between. */
    static Map<String, Long> minus(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> d = new TreeMap<>();
        a.forEach((k, v) -> {
            long delta = v - b.getOrDefault(k, 0L);
            if (delta > 0) {
                d.put(k, delta);
            }
        });
        return d;
    }

    /** "median m (min a, max b)" of {@code values}. */
    static String medianMinMax(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "median %.2f (min %.2f, max %.2f)", median(sorted), sorted.get(0), sorted.get(sorted.size() - 1));
    }

    /** The median of {@code values}. */
    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The {@code q} quantile (nearest rank) of sorted nanosecond samples, in ms; 0 when there are none. */
    static double quantileMs(long[] sortedNs, double q) {
        if (sortedNs.length == 0) {
            return 0.0;
        }
        return sortedNs[Math.min(sortedNs.length - 1, Math.max(0, (int) Math.ceil(q * sortedNs.length) - 1))] / 1e6;
    }

    /** "p50 .. ms, p99 .. ms, p99.9 .. ms, max .. ms" of sorted nanosecond samples. */
    static String summary(long[] sortedNs) {
        return String.format(Locale.ROOT, "p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms",
                quantileMs(sortedNs, 0.50), quantileMs(sortedNs, 0.99), quantileMs(sortedNs, 0.999), quantileMs(sortedNs, 1.0));
    }

    /**
     * With {@code -Dperf.jfr=DIR}: a JFR recording (profile settings, execution samples every ms) of the measured part
     * only, dumped by {@link #stopRecording} to {@code DIR/<name>.jfr}; without it, none (null).
     */
    static jdk.jfr.Recording startRecording() {
        if (System.getProperty("perf.jfr") == null) {
            return null;
        }
        try {
            jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration(System.getProperty("perf.jfr.settings", "profile")));
            r.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
            r.start();
            return r;
        } catch (IOException | java.text.ParseException e) {
            throw new IllegalStateException("cannot start a JFR recording", e);
        }
    }

    static void stopRecording(jdk.jfr.Recording r, String name) {
        if (r == null) {
            return;
        }
        r.stop();
        try {
            r.dump(Path.of(System.getProperty("perf.jfr"), name + ".jfr"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the JFR recording", e);
        } finally {
            r.close();
        }
    }
}
