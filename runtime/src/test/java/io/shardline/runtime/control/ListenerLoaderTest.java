package io.shardline.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.config.ConfigError;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.listener.ConfiguredHandler;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.shard.AckMode;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.topology.StreamSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListenerLoaderTest {

    @TempDir
    Path dir;

    private final Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader());

    @AfterEach
    void close() {
        plugins.close();
    }

    private ListenerLoader.Result load(String file, String content) throws IOException {
        Files.writeString(dir.resolve(file), content);
        return ListenerLoader.loadAll(dir, plugins, Placeholders.system());
    }

    @Test
    void aValidListenerGetsDefaultsAndTypedSettings() throws IOException {
        ListenerLoader.Result result = load("orders-audit.properties", """
                handler = configured
                streams = orders:16, payments:4
                concurrency = 2
                max.concurrency = 8
                ack.mode = ack-delete
                start.from = earliest
                handler.config.prefix = p-
                """);
        assertThat(result.errors()).isEmpty();
        ListenerDefinition def = result.listeners().get(0);
        ListenerConfig config = def.config();
        assertThat(config.name()).isEqualTo("orders-audit");
        assertThat(config.group()).isEqualTo("orders-audit");
        assertThat(config.streams()).containsExactly(new StreamSpec("orders", 16), new StreamSpec("payments", 4));
        assertThat(config.startId()).isEqualTo("0");
        assertThat(config.streams().stream().mapToInt(StreamSpec::shardCount).sum()).isEqualTo(20);
        assertThat(def.handler().className()).isEqualTo(ConfiguredHandler.class.getName());
        assertThat(def.handlerConfig().getString("prefix")).isEqualTo("p-");
        assertThat(def.handlerConfig().getInt("limit")).isEqualTo(5);
        ConsumerSettings settings = config.consumerSettings();
        assertThat(settings.maxConcurrency()).isEqualTo(8);
        assertThat(settings.ackMode()).isEqualTo(AckMode.ACK_DELETE);
        assertThat(settings.deadLetterStream()).isEqualTo("orders-audit.dlq");
        assertThat(settings.batchSize()).isEqualTo(100);
    }

    @Test
    void everyErrorNamesFileLineKeyAndValue() throws IOException {
        ListenerLoader.Result result = load("bad.properties", """
                handler = configured
                streams = orders:sixteen
                concurrency = 0
                ack.mode = ack-and-delete
                retry.backoff.ms = 500
                retry.backoff.max.ms = 100
                batchsize = 10
                handler.config.limit = 11
                handler.config.prefx = x
                """);
        String file = dir.resolve("bad.properties").toString();
        assertThat(result.listeners()).isEmpty();
        assertThat(result.errors()).extracting(ConfigError::toString).containsExactlyInAnyOrder(
                file + ":2: streams = \"orders:sixteen\": shard count 'sixteen' in 'orders:sixteen' is not a number",
                file + ":3: concurrency = \"0\": must be between 1 and 256",
                file + ":4: ack.mode = \"ack-and-delete\": 'ack-and-delete' is not one of [ack, ack-delete]",
                file + ":6: retry.backoff.max.ms = \"100\": must be >= retry.backoff.ms",
                file + ":7: batchsize = \"10\": unknown key (did you mean 'batch.size'?)",
                file + ":8: handler.config.limit = \"11\": must be between 1 and 10",
                file + ":9: handler.config.prefx = \"x\": unknown key (did you mean 'prefix'?)",
                file + ": handler.config.prefix: required and not set (it has no default)");
    }

    @Test
    void aWeightTheRangeAssignorWouldIgnoreIsRefused() throws IOException {
        ListenerLoader.Result result = load("weighted.properties", """
                handler = configured
                streams = orders:4
                handler.config.prefix = x
                member.weight = 3
                """);
        assertThat(result.listeners()).isEmpty();
        assertThat(result.errors()).extracting(ConfigError::toString).containsExactly(dir.resolve("weighted.properties")
                + ":4: member.weight = \"3\": the range assignor ignores weights: use sticky, cooperative-sticky or "
                + "round-robin, or leave member.weight at 1");
        ListenerLoader.Result sticky = load("sticky.properties", "handler = configured\nstreams = orders:4\n"
                + "handler.config.prefix = x\nassignor = sticky\nmember.weight = 3\n");
        assertThat(sticky.listeners()).extracting(ListenerDefinition::name).containsExactly("sticky");
    }

    @Test
    void anUnknownHandlerIsReportedWithTheKnownOnesAndOtherListenersStillLoad() throws IOException {
        Files.writeString(dir.resolve("good.properties"), "handler = configured\nstreams = a:1\nhandler.config.prefix = x\n");
        ListenerLoader.Result result = load("typo.properties", "streams = a:1\nhandler = configurd\n");
        assertThat(result.listeners()).extracting(ListenerDefinition::name).containsExactly("good");
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.toString()).startsWith(dir.resolve("typo.properties") + ":2: handler = \"configurd\": no handler plugin named 'configurd'");
            assertThat(e.reason()).contains("configured (" + ConfiguredHandler.class.getName() + ")");
        });
    }

    @Test
    void anAssignorThisWorkerLacksIsRefusedNamingIt() throws IOException {
        ListenerLoader.Result result = load("custom.properties",
                "handler = configured\nstreams = a:1\nhandler.config.prefix = x\nassignor = lowest-member\n");
        assertThat(result.listeners()).isEmpty();
        assertThat(result.errors()).singleElement().satisfies(e -> assertThat(e.toString()).startsWith(
                dir.resolve("custom.properties") + ":4: assignor = \"lowest-member\": unknown assignor 'lowest-member': "
                        + "the built-in assignors are range, round-robin, sticky, cooperative-sticky"));
        // Issue 16.3: a class name is no longer enough.
        assertThat(load("custom.properties", "handler = configured\nstreams = a:1\nhandler.config.prefix = x\n"
                + "assignor = javax.swing.JFrame\n").errors()).singleElement()
                .satisfies(e -> assertThat(e.reason()).startsWith("unknown assignor 'javax.swing.JFrame'"));
    }

    @Test
    void anAssignorPluginOnThePluginPathIsAccepted(@TempDir Path pluginPath) throws IOException {
        io.shardline.runtime.plugin.TestPlugins.jar("lowest-member-assignor", pluginPath);
        try (Plugins withPlugin = Plugins.load(List.of(pluginPath), getClass().getClassLoader())) {
            Files.writeString(dir.resolve("custom.properties"),
                    "handler = configured\nstreams = a:1\nhandler.config.prefix = x\nassignor = lowest-member\n");
            ListenerLoader.Result result = ListenerLoader.loadAll(dir, withPlugin, Placeholders.system());
            assertThat(result.errors()).isEmpty();
            assertThat(result.listeners().get(0).config().assignor()).isEqualTo("lowest-member");
        }
    }

    @Test
    void listenerFilesSharingAStreamMustAgreeOnAckDeleteAndRetention() throws IOException {
        Files.writeString(dir.resolve("cleaner.properties"), """
                handler = configured
                streams = orders:2
                ack.mode = ack-delete
                handler.config.prefix = p-
                """);
        Files.writeString(dir.resolve("billing.properties"), """
                handler = configured
                streams = orders:2, payments:1
                retention.max.length = 100
                handler.config.prefix = p-
                """);
        ListenerLoader.Result result = load("audit.properties", """
                handler = configured
                streams = payments:1
                retention.max.length = 5
                handler.config.prefix = p-
                """);

        assertThat(result.listeners()).isEmpty();
        assertThat(result.errors()).anySatisfy(e -> {
            assertThat(e.key()).isEqualTo("ack.mode");
            assertThat(e.file()).endsWith("cleaner.properties");
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.reason()).contains("stream 'orders' is also consumed by group 'billing' (listener 'billing')");
        }).anySatisfy(e -> {
            assertThat(e.key()).isEqualTo("streams");
            assertThat(e.file()).endsWith("billing.properties");
            assertThat(e.reason()).contains("ack.mode=ack-delete by listener 'cleaner'");
        }).anySatisfy(e -> {
            assertThat(e.key()).isEqualTo("retention.max.length");
            assertThat(e.file()).endsWith("audit.properties");
            assertThat(e.reason()).contains("stream 'payments' has retention retention.max.length=100");
        });
    }
}
