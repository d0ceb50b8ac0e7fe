package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.dist.DistributionArchive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The worker processes of one multi-process test: the built distribution, a work directory kept under
 * {@code target/it-work/<cluster>} (worker configs, console output, logs, listener files: read it after a failure),
 * the settings every worker shares, and every worker started, stopped by its pid when the test ends, also when the
 * test JVM exits early (a shutdown hook). Used from the test thread only.
 */
final class ItFleet implements AutoCloseable {

    /** The cluster name, {@code <prefix>-<8 random hex digits>}; also the work directory's name. */
    final String cluster;
    /** The unpacked distribution the workers run from. */
    final Path dist;
    /** The work directory. */
    final Path dir;
    /** The {@code listeners.dir} of every worker. */
    final Path listeners;

    private final List<WorkerProcess> workers = new ArrayList<>();
    private final Thread reaper = new Thread(this::stopAll);

    private ItFleet(String cluster, Path dist, Path dir, Path listeners) {
        this.cluster = cluster;
        this.dist = dist;
        this.dir = dir;
        this.listeners = listeners;
    }

    /**
     * Finds the distribution ({@code -Dshardline.dist.dir}, else the reactor's {@code dist/target}) and makes its
     * class-data-sharing archive once ({@link DistributionArchive}), creates the work directory for a new cluster named after {@code prefix} and registers the shutdown hook.
     */
    static ItFleet create(String prefix) throws IOException {
        Path dist = Path.of(System.getProperty("shardline.dist.dir", "../dist/target/shardline-0.1.0-SNAPSHOT"));
        assertThat(dist.resolve("bin/start-worker")).as("build the distribution first (mvn package)").exists();
        DistributionArchive.ensure(dist);
        String cluster = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createDirectories(Path.of("target", "it-work", cluster)).toAbsolutePath();
        System.out.println("Worker output in " + dir);
        ItFleet fleet = new ItFleet(cluster, dist, dir, Files.createDirectories(dir.resolve("listeners")));
        Runtime.getRuntime().addShutdownHook(fleet.reaper);
        return fleet;
    }

    /** Writes {@code listeners/<name>.properties}, one setting per line. */
    void listener(String name, String... settings) throws IOException {
        Files.writeString(listeners.resolve(name + ".properties"), String.join("\n", settings) + "\n");
    }

    /**
     * The settings every worker of this fleet shares: the cluster name, the TCP/IP members on
     * {@code clusterPorts}, and the plugin path, listeners directory and log directory of this fleet. Returns a
     * mutable map in insertion order for the test's own settings (Redis, timeouts, token).
     */
    Map<String, String> commonSettings(List<Integer> clusterPorts) {
        Map<String, String> common = new LinkedHashMap<>();
        common.put("cluster.name", cluster);
        common.put("cluster.members", clusterPorts.stream().map(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(",")));
        common.put("plugin.path", dist.resolve("plugins").toString());
        common.put("listeners.dir", listeners.toString());
        common.put("log.dir", dir.resolve("logs").toString());
        return common;
    }

    /** {@code settings} plus one worker's own {@code cluster.port} and {@code rest.port}. */
    static Map<String, String> withPorts(Map<String, String> settings, int clusterPort, int restPort) {
        Map<String, String> s = new LinkedHashMap<>(settings);
        s.put("cluster.port", Integer.toString(clusterPort));
        s.put("rest.port", Integer.toString(restPort));
        return s;
    }

    /** Starts worker {@code id} with {@code settings}; its config and output files are named {@code id}. */
    WorkerProcess start(String id, Map<String, String> settings) throws IOException {
        return start(id, id, settings);
    }

    /** Starts worker {@code workerId}; {@code fileId} names its config and output files (a restart gets new ones). */
    WorkerProcess start(String fileId, String workerId, Map<String, String> settings) throws IOException {
        WorkerProcess w = WorkerProcess.start(dist, dir, fileId, workerId, settings);
        workers.add(w);
        return w;
    }

    /** Starts worker {@code id} with {@code settings} and {@code env} added to its environment. */
    WorkerProcess start(String id, Map<String, String> settings, Map<String, String> env) throws IOException {
        WorkerProcess w = WorkerProcess.start(dist, dir, id, id, settings, env);
        workers.add(w);
        return w;
    }

    /** Every worker started so far, in start order. */
    List<WorkerProcess> workers() {
        return List.copyOf(workers);
    }

    /** Stops every worker still running (a paused one is resumed first, so that nothing stays stopped). */
    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting and the hook runs anyway.
        }
    }

    private void stopAll() {
        for (WorkerProcess w : workers) {
            if (w.process.isAlive()) {
                try {
                    w.resume();
                } catch (AssertionError exitedMeanwhile) {
                    // Nothing to resume: it is gone.
                }
            }
            w.close();
        }
    }
}
