package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.cli.Shardline;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A record that kills its worker's JVM (docs/operations.md, "Poison records"): the {@code halt-handler} fixture halts
 * the JVM on a record marked {@code poison=true}. With {@code max.deliveries=2} the worker dies twice (the test
 * starts it again each time); the third owner finds the record's Redis delivery count past the limit and writes it to
 * the dead-letter stream without calling the handler, so the worker stays up, and every other record is handled.
 * Then {@code bin/shardline dlq list} and {@code dlq redrive} (in process) on the live worker: the letter with its delivery count
 * and the error saying no handler error was recorded; an executed redrive to another stream moves it there (every
 * {@code dlq} command and exit code in process: {@code DeadLetterCliTest}).
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=PoisonRecordIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class PoisonRecordIntegrationTest {

    private static final String TOKEN = "it-poison-token";
    private static final int MAX_DELIVERIES = 2;
    private static final Duration JOIN = Duration.ofSeconds(150);
    /**
     * A restarted worker owns the shard once the dead member's session (session.timeout.ms=4000) has expired and the
     * shard is assigned again (a heartbeat interval); the rest is a busy machine.
     */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ItFleet fleet;
    private String url;
    private Path tokenFile;

    private record Run(int exit, String out) {
    }

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aRecordThatKillsItsWorkerEndsInTheDeadLetterStreamAfterMaxDeliveries(RedisServer redis) throws Exception {
        fleet = ItFleet.create("poison");
        Path plugins = PluginJars.build("halt-handler", fleet.dir.resolve("halt-plugins")).getParent();
        List<Integer> ports = FreePorts.take(2);
        fleet.listener("poison", "handler=halt", "streams=poison:1", "start.from=earliest", "batch.size=10",
                "max.deliveries=" + MAX_DELIVERIES);
        Map<String, String> settings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0), ports.get(1));
        settings.put("plugin.path", settings.get("plugin.path") + "," + plugins);
        settings.put("redis.url", redis.uri());
        settings.put("session.timeout.ms", "4000");
        settings.put("heartbeat.interval.ms", "500");
        settings.put("rest.auth.token", TOKEN);
        url = "http://127.0.0.1:" + ports.get(1);
        tokenFile = Files.writeString(fleet.dir.resolve("cli.token"), TOKEN + "\n");

        List<String> ids = new ArrayList<>();
        try (RespProbe probe = redis.probe()) {
            for (int i = 0; i < 5; i++) {
                ids.add(String.valueOf(i == 2 ? probe.call("XADD", "{poison:0}", "*", "n", "" + i, "poison", "true")
                        : probe.call("XADD", "{poison:0}", "*", "n", "" + i)));
            }
        }
        String poison = ids.get(2);

        // 1. Each run of the worker dies in the handler on the poison record: max.deliveries times.
        for (int death = 1; death <= MAX_DELIVERIES; death++) {
            WorkerProcess w = fleet.start("w0-run" + death, "w0", settings);
            w.await("joined cluster", JOIN);
            w.await("HALT-HANDLER halting on " + poison + " delivery " + death, SETTLE);
            assertThat(w.waitExit(SETTLE)).as("the JVM halted in the handler").isEqualTo(99);
        }

        // 2. The next run dead-letters it without calling the handler and handles the rest.
        WorkerProcess last = fleet.start("w0-run" + (MAX_DELIVERIES + 1), "w0", settings);
        last.await("joined cluster", JOIN);
        last.await("written to dead-letter stream poison.dlq", SETTLE);
        awaitPendingZero(redis);
        assertThat(last.process.isAlive()).isTrue();
        assertThat(last.find("HALT-HANDLER halting")).as("the handler never saw it again").isEmpty();
        List<String> handled = new ArrayList<>();
        for (WorkerProcess w : fleet.workers()) {
            w.lines().stream().filter(l -> l.startsWith("HALT-HANDLER handled ")).forEach(l -> handled.add(l.substring(21)));
        }
        assertThat(handled).containsAll(List.of(ids.get(0), ids.get(1), ids.get(3), ids.get(4))).doesNotContain(poison);

        // 3. bin/shardline dlq on the live worker.
        JsonObject page = new JsonObject(ok("dlq", "list", "poison", "--json"));
        assertThat(page.getLong("total")).isEqualTo(1);
        JsonObject letter = page.getJsonArray("dead_letters").getJsonObject(0);
        assertThat(letter.getString("entry_id")).isEqualTo(poison);
        assertThat(letter.getInteger("deliveries")).isEqualTo(MAX_DELIVERIES + 1);
        assertThat(letter.getInteger("attempts")).isZero();
        assertThat(letter.getString("error")).contains("max.deliveries=2 reached", "no handler error was recorded");
        String id = letter.getString("id");
        String executed = ok("dlq", "redrive", "poison", "--ids", id, "--to-stream", "poison-parking", "--execute");
        assertThat(executed).contains("poison-parking", "written back");
        try (RespProbe probe = redis.probe()) {
            assertThat(probe.call("XLEN", "poison.dlq")).isEqualTo(0L);
            assertThat(probe.call("XLEN", "poison-parking")).isEqualTo(1L);
        }
    }

    private static void awaitPendingZero(RedisServer redis) throws IOException {
        long end = System.nanoTime() + SETTLE.toNanos();
        Object pending = null;
        while (System.nanoTime() < end) {
            try (RespProbe probe = redis.probe()) {
                pending = ((List<?>) probe.call("XPENDING", "{poison:0}", "poison")).get(0);
                if (Long.valueOf(0).equals(pending)) {
                    return;
                }
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("group poison still has " + pending + " pending entries after " + SETTLE);
    }

    private String ok(String... args) {
        Run r = run(args);
        assertThat(r.exit()).as("bin/shardline %s: %s", String.join(" ", args), r.out()).isZero();
        return r.out();
    }

    /** Runs the command in this JVM ({@link Shardline#commandLine()}, what {@code bin/shardline} runs). */
    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", url, "--token-file", tokenFile.toString()));
        StringWriter out = new StringWriter();
        PrintWriter writer = new PrintWriter(out, true);
        int exit = Shardline.commandLine().setOut(writer).setErr(writer).execute(all.toArray(String[]::new));
        writer.flush();
        return new Run(exit, out.toString());
    }
}
