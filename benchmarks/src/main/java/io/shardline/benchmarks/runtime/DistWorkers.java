package io.shardline.benchmarks.runtime;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Workers of one cluster started from the built distribution with {@code bin/start-worker}, as users start them,
 * for the benches that measure a whole worker process (start time, idle cost): each worker's configuration, its
 * output file, its process and what {@code /proc} says of it (CPU time, resident memory). Every process it starts
 * is stopped by its pid ({@link #close}: SIGTERM, then SIGKILL after 30 s). Not thread-safe.
 */
final class DistWorkers implements AutoCloseable {

    /** {@code /proc/<pid>/stat} counts CPU time in clock ticks of 1/100 s. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

    private final Path dist;
    private final Path work;
    private final String cluster = "bench-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Integer> clusterPorts;
    private final List<Integer> restPorts;
    private final List<Process> started = new ArrayList<>();

    /**
     * Ports for {@code seeds} workers (the {@code cluster.members} list names them all, as the shipped
     * {@code worker.properties} names three: a worker started alone tries the others first).
     */
    DistWorkers(Path dist, Path work, int seeds) {
        if (!Files.isExecutable(dist.resolve("bin/start-worker"))) {
            throw new IllegalArgumentException("no bin/start-worker in " + dist
                    + "; build the distribution first (mvn package)");
        }
        this.dist = dist;
        this.work = work;
        List<Integer> ports = FreePorts.take(2 * seeds);
        this.clusterPorts = ports.subList(0, seeds);
        this.restPorts = ports.subList(seeds, 2 * seeds);
    }

    /**
     * The distribution folder a bench's {@code main} was given as its first argument; prints {@code usage} (when
     * {@code args} has fewer than {@code required} arguments) or what to build, and exits with 2, when it cannot run.
     */
    static Path distOrExit(String[] args, int required, String usage) {
        if (args.length < required) {
            System.err.println("usage: " + usage);
            System.exit(2);
        }
        Path dist = Path.of(args[0]).toAbsolutePath();
        if (!Files.isExecutable(dist.resolve("bin/start-worker"))) {
            System.err.println("no bin/start-worker in " + dist + "; build the distribution first (mvn package)");
            System.exit(2);
        }
        return dist;
    }

    /** A fresh work directory with a {@code listeners/} folder holding {@code name.properties}. */
    static Path workWithListener(String prefix, String name, String... lines) throws IOException {
        Path work = Files.createTempDirectory(prefix);
        Path listeners = Files.createDirectories(work.resolve("listeners"));
        Files.writeString(listeners.resolve(name + ".properties"), String.join("\n", lines) + "\n");
        return work;
    }

    /** Spawns worker {@code i} (its id {@code w<i>}) with {@code extra} worker settings; returns the process. */
    Process start(int i, String redisUrl, String... extra) throws IOException {
        String id = "w" + i;
        StringBuilder seeds = new StringBuilder();
        for (int port : clusterPorts) {
            seeds.append(seeds.isEmpty() ? "" : ",").append("127.0.0.1:").append(port);
        }
        List<String> lines = new ArrayList<>(List.of("cluster.name=" + cluster, "worker.id=" + id,
                "cluster.port=" + clusterPorts.get(i), "cluster.members=" + seeds, "redis.url=" + redisUrl,
                "rest.port=" + restPorts.get(i), "plugin.path=" + dist.resolve("plugins"),
                "listeners.dir=" + work.resolve("listeners"), "log.dir=" + work.resolve("logs")));
        lines.addAll(List.of(extra));
        Path config = work.resolve(id + ".properties");
        Files.writeString(config, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(dist.resolve("bin/start-worker").toString(), config.toString())
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(output(i).toFile()).start();
        started.add(p);
        return p;
    }

    /** Where worker {@code i}'s console output goes. */
    Path output(int i) {
        return work.resolve("w" + i + ".out");
    }

    /** The workers started so far. */
    List<Process> processes() {
        return List.copyOf(started);
    }

    /** The wall time of a bare JVM start of the distribution's class path ({@code bin/start-worker --version}). */
    static long bareJvmMs(Path dist, Path work) throws IOException, InterruptedException {
        long spawned = System.nanoTime();
        Process p = new ProcessBuilder(dist.resolve("bin/start-worker").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(work.resolve("version.out").toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("start-worker --version did not exit within 60 s");
        }
        return (System.nanoTime() - spawned) / 1_000_000;
    }

    /** The first line of worker {@code i}'s output containing {@code text}, waiting for it up to {@code timeoutMs}. */
    String awaitLine(int i, String text, long timeoutMs) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Process p = started.get(i);
        while (System.nanoTime() < deadline) {
            Optional<String> line = firstLine(output(i), text);
            if (line.isPresent()) {
                return line.get();
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("worker w" + i + " exited (" + p.exitValue() + "); see " + output(i));
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        throw new IllegalStateException("no '" + text + "' within " + timeoutMs + " ms; see " + output(i));
    }

    /** The first line of {@code file} containing {@code text}. */
    static Optional<String> firstLine(Path file, String text) throws IOException {
        return Files.readAllLines(file, StandardCharsets.ISO_8859_1).stream().filter(l -> l.contains(text)).findFirst();
    }

    /** User plus system CPU time of {@code pid} so far, in clock ticks ({@link #CLOCK_TICKS_PER_SECOND}). */
    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // Fields after the command name (in parentheses): state is field 3, utime 14 and stime 15.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * CPU time of {@code pid}'s threads so far in milliseconds, summed by thread name with its digits dropped
     * ({@code vert.x-eventloop-thread-#}, {@code C2 CompilerThread#}), largest first: where a process spent its CPU.
     */
    static Map<String, Long> cpuMsByThread(long pid) throws IOException {
        Map<String, Long> byName = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "#");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ms = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000 / CLOCK_TICKS_PER_SECOND;
                    byName.merge(name, ms, Long::sum);
                } catch (NoSuchFileException ended) {
                    // the thread ended meanwhile
                }
            }
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * The heap {@code pid} uses right after a full collection, in KiB: {@code jcmd <pid> GC.run}, then the {@code used}
     * figure of {@code GC.heap_info} (-1 when jcmd is missing or its answer has no such figure).
     */
    static long heapAfterGcKb(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return -1;
        }
        jcmd(jcmd, pid, "GC.run");
        Matcher m = HEAP_USED.matcher(jcmd(jcmd, pid, "GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String jcmd(Path jcmd, long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    /** The resident memory of {@code pid} in KiB. */
    static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /** Redis's user and system CPU seconds so far ({@code INFO cpu}). */
    static double redisCpuSeconds(RespProbe probe) throws IOException {
        double total = 0;
        for (String line : ((String) probe.call("INFO", "cpu")).split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                total += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }

    /** The machine's load averages as {@code /proc/loadavg} states them (1, 5, 15 minutes). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** The median of {@code values} (the upper one of an even count), 0 when empty. */
    static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }

    /** Stops every started worker: SIGTERM, then SIGKILL for one still alive after 30 s. */
    @Override
    public void close() throws InterruptedException {
        for (Process p : started) {
            p.destroy();
        }
        for (Process p : started) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
