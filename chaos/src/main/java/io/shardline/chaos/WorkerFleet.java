package io.shardline.chaos;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The worker processes of a run: writes their {@code worker.properties} (own cluster name, free loopback
 * ports, explicit member list) and the chaos listener, starts and stops them, and tells which one leads
 * (the worker id in Redis's {@code {shardline:<cluster>}:leader-holder}, else the oldest live worker).
 * Thread-safe for the runner's use (one fault at a time plus the shutdown hook).
 */
public final class WorkerFleet {

    private final ChaosSettings settings;
    private final String clusterName;
    private final List<WorkerProcess> workers = new ArrayList<>();
    private final Map<String, Integer> restPorts = new HashMap<>();
    private Path listenerFile;

    private WorkerFleet(ChaosSettings settings, String clusterName) {
        this.settings = settings;
        this.clusterName = clusterName;
    }

    /** Writes the configuration of {@code settings.workers()} workers against the Redis at {@code redisUri}. */
    public static WorkerFleet configure(ChaosSettings settings, String redisUri, Path pluginDir) throws IOException {
        String cluster = "chaos-" + Long.toHexString(settings.seed()) + "-" + ProcessHandle.current().pid();
        WorkerFleet fleet = new WorkerFleet(settings, cluster);
        Path listeners = Files.createDirectories(settings.workDir().resolve("listeners"));
        fleet.listenerFile = listeners.resolve(ChaosSettings.LISTENER + ".properties");
        fleet.writeListener(settings.shards());
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < settings.workers(); i++) {
            ports.add(FreePorts.one());
        }
        String members = ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        for (int i = 0; i < settings.workers(); i++) {
            String id = "w" + (i + 1);
            Path dir = Files.createDirectories(settings.workDir().resolve("workers").resolve(id));
            Path props = dir.resolve("worker.properties");
            int restPort = FreePorts.one();
            fleet.restPorts.put(id, restPort);
            Files.writeString(props, String.join("\n",
                    "cluster.name=" + cluster,
                    "worker.id=" + id,
                    "cluster.host=127.0.0.1",
                    "cluster.port=" + ports.get(i),
                    "cluster.members=" + members,
                    "redis.url=" + redisUri,
                    "session.timeout.ms=" + settings.sessionTimeoutMs(),
                    "heartbeat.interval.ms=" + settings.heartbeatIntervalMs(),
                    "rebalance.timeout.ms=" + settings.rebalanceTimeoutMs(),
                    "plugin.path=" + pluginDir,
                    "listeners.dir=" + listeners,
                    "rest.bind=127.0.0.1",
                    "rest.port=" + restPort,
                    "rest.auth.token=" + ChaosSettings.REST_TOKEN,
                    "log.dir=" + dir.resolve("logs"),
                    ""));
            fleet.workers.add(new WorkerProcess(id, settings.distHome(), props, settings.workerJavaOpts()));
        }
        return fleet;
    }

    /**
     * Writes the chaos listener's file (shared by every worker) with {@code shards} for the stream: at the start, and
     * as an operator edits it when changing the count (a worker started after the change must declare the stream's
     * count; during a change both counts are accepted, docs/operations.md "Changing the shard count").
     */
    public void writeListener(int shards) throws IOException {
        Files.writeString(listenerFile, listenerProperties(shards));
    }

    /** The REST port of worker {@code id}. */
    public int restPort(String id) {
        return restPorts.get(id);
    }

    private String listenerProperties(int shards) {
        return String.join("\n",
                "handler=verifying-handler",
                "streams=" + ChaosSettings.STREAM + ":" + shards,
                "group=" + ChaosSettings.LISTENER,
                "concurrency=1",
                "max.concurrency=" + settings.maxConcurrency(),
                "batch.size=" + settings.batchSize(),
                "start.from=earliest",
                "ack.mode=ack",
                "max.attempts=3",
                "dead.letter.stream=" + ChaosSettings.DEAD_LETTERS,
                "handler.config.verify.dir=" + settings.workDir().resolve("handled"),
                "handler.config.verify.work.ms=" + settings.workMs(),
                "");
    }

    /** The Hazelcast cluster name of this run. */
    public String clusterName() {
        return clusterName;
    }

    /** All workers, in id order. */
    public List<WorkerProcess> workers() {
        return List.copyOf(workers);
    }

    /** Starts every worker at once, then waits until each has joined. */
    public void startAll(Duration joinTimeout) throws InterruptedException {
        for (WorkerProcess w : workers) {
            w.start(System.currentTimeMillis());
        }
        for (WorkerProcess w : workers) {
            w.awaitJoined(joinTimeout);
        }
    }

    /** The leader's worker id as the coordinator recorded it in Redis, else the oldest live worker. */
    public Optional<WorkerProcess> leader(String redisHost, int redisPort) {
        try (RespProbe probe = RespProbe.connect(redisHost, redisPort, 1_000)) {
            Object holder = probe.call("GET", "{shardline:" + clusterName + "}:leader-holder");
            if (holder instanceof String id) {
                Optional<WorkerProcess> w = workers.stream().filter(x -> x.id().equals(id) && x.alive()).findFirst();
                if (w.isPresent()) {
                    return w;
                }
            }
        } catch (IOException e) {
            // Redis unreachable: fall back to Hazelcast's rule (the oldest member leads)
        }
        return workers.stream().filter(WorkerProcess::alive).min(Comparator.comparingLong(WorkerProcess::startedAtMs));
    }

    /** Kills every worker that is still running (SIGKILL by pid); used on abort and from the shutdown hook. */
    public void killAll() {
        for (WorkerProcess w : workers) {
            try {
                w.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops every worker gracefully, one after the other; returns the ids that did not stop cleanly. */
    public List<String> stopAll() throws InterruptedException {
        List<String> unclean = new ArrayList<>();
        for (WorkerProcess w : workers) {
            if (!w.stopGracefully(Duration.ofMillis(settings.rebalanceTimeoutMs() + 5_000L))) {
                unclean.add(w.id());
            }
        }
        return unclean;
    }

}
