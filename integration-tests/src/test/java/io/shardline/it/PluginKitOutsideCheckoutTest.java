package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin author outside the checkout (docs/plugins.md, "Outside a checkout"): the
 * distribution's {@code sdk/template} copied into a directory of its own, the SDK installed with
 * {@code bin/install-sdk}, the copy built and tested by a separate Maven run (its own test runs the handler on a
 * real Redis), and the jar it made run by a worker from the distribution.
 *
 * <p>The SDK is installed into a local repository of this test's own, which the inner build uses
 * ({@code -Dmaven.repo.local}), so nothing leaks into other builds on the machine; its settings file lists
 * the machine's own local repository as a read-only remote for everything else (releases only), before
 * Maven Central, so the inner build downloads nothing this build already has.
 */
@Tag("integration")
@RedisTest
class PluginKitOutsideCheckoutTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    /** The inner build resolves the runtime's dependencies (mostly cached) and runs the template's test. */
    private static final Duration BUILD = Duration.ofMinutes(10);
    /**
     * The inner Maven's JVM: the client compiler only and the serial collector, as suits a build of a minute; 40 % less
     * CPU than the defaults (docs/testing.md, "Worker JVMs in tests"). A plugin author's Maven needs nothing of it.
     */
    private static final String MAVEN_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void theTemplateBuildsAloneAndItsJarRunsInAWorker(RedisServer redis, @TempDir Path outside) throws Exception {
        fleet = ItFleet.create("plugin-kit");
        Path dist = fleet.dist;
        Path localRepo = outside.resolve("m2");
        run(List.of(dist.resolve("bin/install-sdk").toString(), "--repo", localRepo.toString()), outside,
                Duration.ofMinutes(1), "bin/install-sdk");
        assertThat(localRepo.resolve("io/shardline/shardline-plugins-api")).isDirectory();

        Path plugin = outside.resolve("order-audit");
        DirectoryTrees.copy(dist.resolve("sdk/template"), plugin);
        Path settings = outside.resolve("settings.xml");
        Files.writeString(settings, settings(Path.of(System.getProperty("user.home"), ".m2", "repository")));
        run(List.of(maven(), "-B", "-ntp", "-s", settings.toString(), "-Dmaven.repo.local=" + localRepo, "verify"),
                plugin, BUILD, "mvn verify of the copied template");
        Path jar;
        try (Stream<Path> jars = Files.list(plugin.resolve("target"))) {
            jar = jars.filter(p -> p.getFileName().toString().matches("shardline-plugin-template-.*\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError("no plugin jar in " + plugin.resolve("target")));
        }
        Path pluginDir = Files.createDirectories(outside.resolve("plugins/order-audit"));
        Files.copy(jar, pluginDir.resolve(jar.getFileName()));

        fleet.listener("audit", "handler=template", "streams=audit:2", "group=audit", "concurrency=1", "start.from=earliest",
                "handler.config.required.fields=customer", "handler.config.log.every=1");
        List<Integer> ports = FreePorts.take(2);
        Map<String, String> workerSettings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)),
                ports.get(0), ports.get(1));
        workerSettings.put("plugin.path", outside.resolve("plugins").toString());
        workerSettings.put("redis.url", redis.uri());
        try (RespProbe probe = redis.probe()) {
            for (int i = 0; i < 4; i++) {
                probe.call("XADD", new ShardId("audit", i % 2).key(), "*", "customer", "c" + i);
            }
            probe.call("XADD", new ShardId("audit", 0).key(), "*", "amount", "12"); // no customer: dead-lettered
        }
        WorkerProcess worker = fleet.start("w0", workerSettings);
        worker.await("joined cluster", JOIN);
        worker.await("template audit: 4 records handled", JOIN);
        assertThat(worker.find("Loaded Handler plugin io.shardline.examples.template.TemplateHandler"))
                .as("the worker loaded the jar built outside the checkout\n%s", worker.tail()).isPresent();
    }

    private static String settings(Path machineRepo) {
        return """
                <settings>
                  <profiles>
                    <profile>
                      <id>machine-cache</id>
                      <repositories>
                        <repository>
                          <id>machine-cache</id>
                          <url>%1$s</url>
                          <snapshots><enabled>false</enabled></snapshots>
                        </repository>
                      </repositories>
                      <pluginRepositories>
                        <pluginRepository>
                          <id>machine-cache</id>
                          <url>%1$s</url>
                          <snapshots><enabled>false</enabled></snapshots>
                        </pluginRepository>
                      </pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>machine-cache</activeProfile></activeProfiles>
                </settings>
                """.formatted(machineRepo.toUri());
    }

    /** The Maven that runs this build ({@code maven.home}, passed by surefire), else {@code mvn} on the PATH. */
    private static String maven() {
        String home = System.getProperty("maven.home", "");
        Path mvn = Path.of(home, "bin", "mvn");
        return !home.isEmpty() && Files.isExecutable(mvn) ? mvn.toString() : "mvn";
    }

    private static void run(List<String> command, Path dir, Duration limit, String what)
            throws IOException, InterruptedException {
        Path log = dir.resolve(what.replaceAll("[^A-Za-z0-9]+", "-") + ".log");
        Files.createDirectories(dir);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("MAVEN_OPTS", MAVEN_OPTS);
        Process p = pb.start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + " did not finish within " + limit + "\n" + tail(log));
        }
        assertThat(p.exitValue()).as("%s exit code\n%s", what, tail(log)).isZero();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
