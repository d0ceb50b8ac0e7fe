package io.shardline.benchmarks.runtime;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Start time to the first record handled, from the built distribution (docs/benchmarks.md, "Start-up"). Per run: a
 * bare JVM start of the same class path ({@code bin/start-worker --version}, the baseline), then one worker started
 * with {@code bin/start-worker} on a fresh cluster (its {@code cluster.members} names two more seeds nobody listens
 * on, as the shipped {@code worker.properties} does; {@code -Dbench.start.seeds=1}: only itself) and a {@code logging-sink} listener ({@code log.every=1}) over 16
 * shards that each hold one record before the worker starts. The worker's console lines carry their time, so the
 * bench reads when each start phase ended (config parsed, Hazelcast, clustered Vert.x, Redis, leader claim, listener,
 * the worker's joined line, the coordinator's first answer, the first assignment, the first read, the first record
 * handled) and reports each against the JVM start (the joined line states the JVM uptime), the median of the runs.
 *
 * <p>Then the joining worker: a second worker joins a running one while records flow (500 a second over the 16
 * shards); reported are its spawn to its first assigned shard, and its first assigned shard to its first record
 * handled (the target: within one heartbeat interval).
 *
 * <p>Run after {@code mvn -B -ntp -DskipTests package -pl benchmarks,dist -am} (and {@code bin/shardline-cds} to
 * measure with the class-data-sharing archive; {@code SHARDLINE_CDS=off} measures without):
 * {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.runtime.StartTimeBench
 * dist/target/shardline-0.1.0-SNAPSHOT [RUNS=5] [JOIN_RUNS=3]}. It starts its own {@code redis-server}; every
 * process it starts is stopped by its pid.
 */
public final class StartTimeBench {

    private static final long TIMEOUT_MS = 120_000;
    private static final Pattern TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) ");
    private static final Pattern JVM_MS = Pattern.compile("\\((\\d+) ms after JVM start\\)");
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final int SHARDS = 16;
    /** How many seeds the first worker's {@code cluster.members} names (itself first): 3 as shipped. */
    private static final int SEEDS = Integer.getInteger("bench.start.seeds", 3);

    /** The phases, in the order they end, each by the first console line containing its text. */
    private static final Map<String, String> PHASES = phases();

    private StartTimeBench() {
    }

    private static Map<String, String> phases() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("config parsed", "Starting Shardline");
        p.put("plugins loaded", "Plugins: ");
        p.put("hazelcast started", "Hazelcast member started");
        p.put("clustered vert.x", "Cluster view: ");
        p.put("redis connected", "Connected to Redis");
        p.put("leader epoch taken", "-> LEADER");
        p.put("listener started", "started: handler");
        p.put("start phases line", "Start phases (ms)");
        p.put("coordinator answered", "first answer as leader");
        p.put("first shard assigned", "(owner epoch ");
        p.put("first read (takeover sweep)", "TAKING_OVER -> ");
        p.put("first record handled", "#1 key=");
        return p;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: StartTimeBench DIST_DIR [RUNS=5] [JOIN_RUNS=3]");
            System.exit(2);
        }
        Path dist = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int joinRuns = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        boolean archive = Files.exists(dist.resolve("cds/shardline.jsa"))
                && Files.exists(dist.resolve("cds/shardline.jsa.stamp")) && !"off".equals(System.getenv("SHARDLINE_CDS"));
        System.out.printf("load average before: %s; CDS archive %s; JAVA_OPTS=%s; seeds in cluster.members %d%n",
                DistWorkers.loadAverage(), archive ? "used" : "not used", System.getenv("JAVA_OPTS"), SEEDS);
        try (RedisServer redis = RedisServer.start(false)) {
            List<Long> bare = new ArrayList<>();
            Map<String, List<Long>> fromJvm = new LinkedHashMap<>();
            PHASES.keySet().forEach(k -> fromJvm.put(k, new ArrayList<>()));
            List<Long> spawnToJvm = new ArrayList<>();
            List<Long> cpu = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                Path work = DistWorkers.workWithListener("start-bench", "s", "handler=logging-sink",
                        "streams=start" + run + ":" + SHARDS, "group=start" + run, "concurrency=1",
                        "start.from=earliest", "handler.config.log.every=1");
                bare.add(DistWorkers.bareJvmMs(dist, work));
                try (RespProbe probe = redis.probe()) {
                    for (int s = 0; s < SHARDS; s++) {
                        probe.call("XADD", "{start" + run + ":" + s + "}", "*", "k", "v");
                    }
                }
                Map<String, Long> times = single(dist, work, redis.uri(), fromJvm);
                spawnToJvm.add(times.get("jvm start"));
                cpu.add(times.get("cpu"));
                System.out.printf("run %d: bare JVM %d ms; from JVM start (ms): %s; load %s%n", run, bare.get(run),
                        times, DistWorkers.loadAverage());
            }
            System.out.printf("%nmedian of %d runs, ms after JVM start (spawn to JVM start: median %d ms; bare JVM "
                    + "start-worker --version, spawn to exit: median %d ms; the worker's CPU time (user + system) when "
                    + "its first record was seen: median %d ms %s):%n", runs, DistWorkers.median(spawnToJvm),
                    DistWorkers.median(bare), DistWorkers.median(cpu), cpu);
            System.out.println("| phase ends | after JVM start (median) | the phase (median of per-run differences) | runs |");
            System.out.println("| --- | ---: | ---: | --- |");
            String previous = null;
            for (Map.Entry<String, List<Long>> e : fromJvm.entrySet()) {
                List<Long> values = e.getValue();
                List<Long> deltas = new ArrayList<>();
                for (int i = 0; previous != null && i < values.size() && i < fromJvm.get(previous).size(); i++) {
                    deltas.add(values.get(i) - fromJvm.get(previous).get(i));
                }
                System.out.printf("| %s | %d | %s | %s |%n", e.getKey(), DistWorkers.median(values),
                        previous == null ? "—" : Long.toString(DistWorkers.median(deltas)), values);
                previous = e.getKey();
            }
            for (int run = 0; run < joinRuns; run++) {
                joining(dist, redis, run);
            }
            System.out.printf("load average after: %s%n", DistWorkers.loadAverage());
        }
    }

    /** One worker alone: the time of each phase's line after the JVM start ("jvm start": after the spawn). */
    private static Map<String, Long> single(Path dist, Path work, String redisUrl, Map<String, List<Long>> into)
            throws Exception {
        try (DistWorkers workers = new DistWorkers(dist, work, SEEDS)) {
            LocalTime spawned = LocalTime.now();
            Process worker = workers.start(0, redisUrl);
            workers.awaitLine(0, "#1 key=", TIMEOUT_MS);
            long cpuMs = DistWorkers.cpuTicks(worker.pid()) * 1000 / DistWorkers.CLOCK_TICKS_PER_SECOND;
            System.out.println("CPU ms by thread at the first record: " + DistWorkers.cpuMsByThread(worker.pid()));
            Path out = workers.output(0);
            String phasesLine = DistWorkers.firstLine(out, "Start phases (ms)").orElseThrow();
            String joined = DistWorkers.firstLine(out, "ms after JVM start)").orElseThrow();
            LocalTime jvmStart = time(phasesLine).minus(Duration.ofMillis(jvmMs(joined)));
            Map<String, Long> times = new LinkedHashMap<>();
            times.put("jvm start", ms(spawned, jvmStart));
            times.put("cpu", cpuMs);
            for (Map.Entry<String, String> phase : PHASES.entrySet()) {
                Optional<String> line = DistWorkers.firstLine(out, phase.getValue());
                long ms = line.map(l -> ms(jvmStart, time(l))).orElse(-1L);
                times.put(phase.getKey(), ms);
                into.get(phase.getKey()).add(ms);
            }
            return times;
        }
    }

    /**
     * A second worker joins a running one while records flow: its spawn to its first assigned shard, and from that
     * to its first record handled.
     */
    private static void joining(Path dist, RedisServer redis, int run) throws Exception {
        String stream = "join" + run;
        Path work = DistWorkers.workWithListener("join-bench", "j", "handler=logging-sink",
                "streams=" + stream + ":" + SHARDS, "group=" + stream, "concurrency=1", "start.from=latest",
                "handler.config.log.every=1");
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> produce(redis, stream, producing), "join-bench-producer");
        try (DistWorkers workers = new DistWorkers(dist, work, 2)) {
            workers.start(0, redis.uri());
            workers.awaitLine(0, "(owner epoch ", TIMEOUT_MS);
            producer.start();
            workers.awaitLine(0, "#1 key=", TIMEOUT_MS);
            TimeUnit.SECONDS.sleep(2); // steady flow on the first worker before the second joins
            LocalTime spawned = LocalTime.now();
            workers.start(1, redis.uri());
            String assigned = workers.awaitLine(1, "(owner epoch ", TIMEOUT_MS);
            String first = workers.awaitLine(1, "#1 key=", TIMEOUT_MS);
            String joined = workers.awaitLine(1, "joined cluster", TIMEOUT_MS);
            String revoked = DistWorkers.firstLine(workers.output(0), ": revoke ").orElse(null);
            System.out.printf("join run %d: second worker spawn -> first shard assigned %d ms (first revoke on the "
                    + "first worker at %s ms); first shard assigned -> first record handled %d ms (target: one "
                    + "heartbeat interval, 1000 ms); joined %s ms after its JVM start; load %s%n", run, ms(spawned, time(assigned)),
                    revoked == null ? "?" : Long.toString(ms(spawned, time(revoked))), ms(time(assigned), time(first)),
                    jvmMs(joined), DistWorkers.loadAverage());
        } finally {
            producing.set(false);
            producer.join(5_000);
        }
    }

    /** 500 records a second, one shard after the other, until told to stop. */
    private static void produce(RedisServer redis, String stream, AtomicBoolean producing) {
        try (RespProbe probe = redis.probe()) {
            for (long n = 0; producing.get(); n++) {
                probe.call("XADD", "{" + stream + ":" + (n % SHARDS) + "}", "*", "k", Long.toString(n));
                TimeUnit.MILLISECONDS.sleep(2);
            }
        } catch (IOException e) {
            System.err.println("producer failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The JVM uptime the worker's joined line states. */
    private static long jvmMs(String joined) {
        Matcher m = JVM_MS.matcher(joined);
        if (!m.find()) {
            throw new IllegalStateException("no JVM uptime in " + joined);
        }
        return Long.parseLong(m.group(1));
    }

    private static LocalTime time(String line) {
        Matcher m = TIME.matcher(line);
        if (!m.find()) {
            throw new IllegalStateException("no time in line: " + line);
        }
        return LocalTime.parse(m.group(1), HMS);
    }

    private static long ms(LocalTime from, LocalTime to) {
        return Duration.between(from, to).toMillis();
    }
}
