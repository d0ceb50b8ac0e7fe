package io.shardline.testkit.dist;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The class-data-sharing archive of a built distribution, made once for the tests that start its JVMs (worker
 * processes, {@code bin/} commands): {@code bin/shardline-cds} writes {@code <dist>/cds/shardline.jsa}, where
 * {@code bin/start-worker} and every other {@code bin/} command find it, so each JVM maps the classes a worker loads
 * instead of reading and verifying them from the jars: about half of a worker's start-up CPU (docs/testing.md,
 * "Worker JVMs"). It changes no behaviour a test checks: the same classes, loaded faster.
 *
 * <p>Made under a file lock, so the test forks of one build (and modules built at the same time) make it once; made
 * again when the jars in {@code lib/} changed (their names, sizes and times are kept beside the archive). When it
 * cannot be made (the dump worker did not start in time) the tests go on without it, a little slower, and this JVM
 * does not try again. Thread-safe.
 */
public final class DistributionArchive {

    /** The JVM options of the dump worker: those of the tests' workers. */
    private static final String DUMP_JAVA_OPTS = "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    /** bin/shardline-cds waits up to 120 s for the join and 11 s for the first shard; this covers both and the dump. */
    private static final long DUMP_TIMEOUT_S = 240;
    private static final Set<Path> TRIED = ConcurrentHashMap.newKeySet();

    private DistributionArchive() {
    }

    /**
     * Makes {@code <dist>/cds/shardline.jsa} unless it is there for the jars of {@code dist}; returns at once after
     * the first call in this JVM for the same distribution.
     */
    public static void ensure(Path dist) {
        Path home = dist.toAbsolutePath().normalize();
        if (!TRIED.add(home) || !Files.isExecutable(home.resolve("bin/shardline-cds"))) {
            return;
        }
        try {
            Path dir = Files.createDirectories(home.resolve("cds"));
            try (FileChannel channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
                Path archive = dir.resolve("shardline.jsa");
                Path stamp = dir.resolve("shardline.jsa.lib");
                String jars = jars(home.resolve("lib"));
                // bin/shardline-cds writes the stamp the bin/ commands check (shardline.jsa.stamp) with the archive.
                if (Files.exists(archive) && Files.exists(dir.resolve("shardline.jsa.stamp")) && Files.exists(stamp)
                        && Files.readString(stamp).equals(jars)) {
                    return;
                }
                Files.deleteIfExists(stamp);
                if (dump(home, archive)) {
                    Files.writeString(stamp, jars, StandardCharsets.UTF_8);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One worker with one listener on a Redis of its own, run by bin/shardline-cds; true when it wrote the archive. */
    private static boolean dump(Path home, Path archive) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("shardline-cds");
        Path listeners = Files.createDirectories(work.resolve("listeners"));
        Files.writeString(listeners.resolve("cds.properties"),
                "handler=logging-sink\nstreams=cds:4\ngroup=cds\nstart.from=earliest\n");
        try (RedisServer redis = RedisServer.start(false)) {
            List<Integer> ports = FreePorts.take(2);
            Path config = work.resolve("worker.properties");
            Files.writeString(config, String.join("\n",
                    "worker.id=cds",
                    "cluster.name=cds-" + ProcessHandle.current().pid(),
                    "cluster.host=127.0.0.1",
                    "cluster.port=" + ports.get(0),
                    "cluster.members=127.0.0.1:" + ports.get(0),
                    "redis.url=" + redis.uri(),
                    "plugin.path=" + home.resolve("plugins"),
                    "listeners.dir=" + listeners,
                    "rest.bind=127.0.0.1",
                    "rest.port=" + ports.get(1),
                    "log.dir=" + work.resolve("logs")) + "\n");
            Path output = work.resolve("shardline-cds.out");
            ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/shardline-cds").toString(), config.toString())
                    .redirectErrorStream(true).redirectOutput(output.toFile());
            pb.environment().put("JAVA_OPTS", DUMP_JAVA_OPTS);
            pb.environment().put("SHARDLINE_CDS_ARCHIVE", archive.toString());
            long started = System.nanoTime();
            Process p = pb.start();
            boolean exited = p.waitFor(DUMP_TIMEOUT_S, TimeUnit.SECONDS);
            if (!exited) {
                p.descendants().forEach(ProcessHandle::destroyForcibly); // its worker JVM
                p.destroyForcibly().waitFor();
            }
            boolean written = exited && p.exitValue() == 0 && Files.exists(archive);
            System.out.printf("%s %s in %d ms%s%n", written ? "Made" : "Could not make", archive,
                    (System.nanoTime() - started) / 1_000_000, written ? "" : ": worker JVMs start without it; "
                            + "output in " + output);
            return written;
        }
    }

    /** The jars of {@code lib}: name, size and time, one a line, sorted. */
    private static String jars(Path lib) throws IOException {
        try (Stream<Path> files = Files.list(lib)) {
            return files.filter(f -> f.toString().endsWith(".jar")).sorted().map(f -> {
                try {
                    return f.getFileName() + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).collect(Collectors.joining("\n", "", "\n"));
        }
    }
}
