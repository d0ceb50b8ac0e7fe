package io.shardline.benchmarks.reshard;

import io.shardline.testkit.net.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Worker processes of the built distribution on loopback for {@link ReshardBench}: one cluster, the listeners of one
 * directory, a REST write token, the given heartbeat interval. Started at once, awaited until each logged its join;
 * stopped by their own pids (SIGTERM, then SIGKILL after 30 s).
 */
final class BenchFleet implements AutoCloseable {

    static final String TOKEN = "reshard-bench";
    private static final long JOIN_TIMEOUT_MS = 300_000;

    private static final Pattern RELEASING = Pattern.compile("shard ([^ ]+):(\\d+) epoch \\d+: [A-Z_]+ -> RELEASING");

    private final List<Process> processes = new ArrayList<>();
    private final List<Path> outs = new ArrayList<>();
    private final List<Integer> restPorts = new ArrayList<>();

    /** Starts {@code workers} workers and waits until every one joined. */
    BenchFleet(Path dist, Path work, Path listeners, String redisUrl, int workers, int heartbeatMs)
            throws IOException, InterruptedException {
        String cluster = "reshard-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> ports = FreePorts.take(2 * workers);
        List<String> seeds = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            seeds.add("127.0.0.1:" + ports.get(i));
        }
        for (int i = 0; i < workers; i++) {
            String id = "w" + i;
            Path config = work.resolve(id + ".properties");
            restPorts.add(ports.get(workers + i));
            Files.writeString(config, String.join("\n", "cluster.name=" + cluster, "worker.id=" + id,
                    "cluster.port=" + ports.get(i), "cluster.members=" + String.join(",", seeds),
                    "redis.url=" + redisUrl, "rest.port=" + ports.get(workers + i), "rest.auth.token=" + TOKEN,
                    "heartbeat.interval.ms=" + heartbeatMs, "session.timeout.ms=" + 12 * heartbeatMs,
                    "plugin.path=" + dist.resolve("plugins"), "listeners.dir=" + listeners,
                    "log.dir=" + work.resolve("logs"), ""), StandardCharsets.UTF_8);
            Path out = work.resolve(id + ".out");
            outs.add(out);
            processes.add(new ProcessBuilder(dist.resolve("bin/start-worker").toString(), config.toString())
                    .directory(work.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start());
        }
        for (int i = 0; i < workers; i++) {
            awaitJoined(processes.get(i), outs.get(i));
        }
    }

    /**
     * How many times, so far, a member of any worker released (gave up: revoked, or left) a shard of {@code stream}
     * below {@code below}, from the workers' output ({@code OwnedShard}'s phase log).
     */
    long releases(String stream, int below) throws IOException {
        long n = 0;
        for (Path out : outs) {
            for (String line : Files.readAllLines(out, StandardCharsets.ISO_8859_1)) {
                Matcher m = RELEASING.matcher(line);
                if (m.find() && m.group(1).equals(stream) && Integer.parseInt(m.group(2)) < below) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The REST port of the first worker (writes are forwarded to the leader). */
    int restPort() {
        return restPorts.get(0);
    }

    private static void awaitJoined(Process p, Path out) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_TIMEOUT_MS);
        while (System.nanoTime() < deadline) {
            if (Files.readString(out, StandardCharsets.ISO_8859_1).contains("joined cluster")) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("worker exited (" + p.exitValue() + ") before joining; see " + out);
            }
            TimeUnit.MILLISECONDS.sleep(50); // the poll of the worker's output file
        }
        throw new IllegalStateException("no join within " + JOIN_TIMEOUT_MS + " ms; see " + out);
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
