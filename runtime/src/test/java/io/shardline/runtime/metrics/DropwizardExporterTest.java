package io.shardline.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.shardline.runtime.shard.ConsumptionMetrics;
import io.shardline.runtime.shard.DropwizardHandlerMetrics;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The Prometheus text of a registry parses line by line and carries every family with its labels. */
public class DropwizardExporterTest {

    /** A sample line: name, optional labels (a trailing comma is allowed), a value (strict: what the 0.0.4 text format allows). */
    static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\"\\\\n])*\""
                    + "(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\"\\\\n])*\")*,?)?})? "
                    + "(-?[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|[+-]Inf)( -?[0-9]+)?");
    static final Pattern META = Pattern.compile("# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) .*");

    @Test
    void everyCatalogFamilyIsExportedWithItsLabels() {
        MetricRegistry registry = filled();
        String text = new DropwizardExporter(registry).text();
        Set<String> families = parse(text);
        for (MetricTemplate t : MetricCatalog.ALL) {
            assertThat(families).as(t.template()).contains(MetricsDocs.exposed(t));
        }
        assertThat(text).contains("shardline_listener_records_handled_total{listener=\"orders.v2\",} 7.0");
        assertThat(text).contains("shardline_shard_lag{listener=\"orders.v2\",stream=\"or:ders\",shard=\"3\",} 42.0");
        assertThat(text).contains("# TYPE shardline_listener_handler_batch_time_seconds summary");
        assertThat(text).contains("shardline_listener_handler_batch_time_seconds_count{listener=\"orders.v2\",} 1.0");
        assertThat(text).contains("shardline_coordinator_group_heartbeat_errors_total{group=\"g1\",} 1.0");
        assertThat(text).contains("shardline_coordinator_groups 1.0");
        assertThat(text).contains("shardline_retention_trimmed_total{stream=\"or:ders\",} 9.0");
        assertThat(text).contains("shardline_handler_custom_count_total{listener=\"orders.v2\",} 3.0");
        assertThat(text).contains("shardline_handler_wait_seconds_sum{listener=\"orders.v2\",} 0.25");
        assertThat(text).contains("shardline_handler_size_sum{listener=\"orders.v2\",} 12.0");
    }

    @Test
    void operatorsGetCountersSumsHelpAndLabelsNotNamesInFamilies() {
        String text = new DropwizardExporter(filled()).text();
        // Summaries have a _sum that adds up every duration (3 ms here), so rate(sum)/rate(count) is a mean.
        assertThat(text).contains("shardline_listener_handler_batch_time_seconds_sum{listener=\"orders.v2\",} 0.003");
        // Fenced shards are counted as a counter.
        assertThat(text).contains("# TYPE shardline_listener_shards_fenced_total counter")
                .contains("shardline_listener_shards_fenced_total{listener=\"orders.v2\",} 1.0");
        // HELP is the catalog's meaning, never a Dropwizard class name.
        assertThat(text).contains("# HELP shardline_shard_lag " + ShardMetrics.LAG.help())
                .doesNotContain("Lambda").doesNotContain("Generated from Dropwizard");
        // No listener, group or member name inside a family name.
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                assertThat(line.split(" ")[2]).doesNotContain("orders").doesNotContain("g1").doesNotContain("w1");
            }
        }
        assertThat(text).contains("shardline_shard_oldest_pending_seconds{listener=\"orders.v2\",stream=\"or:ders\","
                + "shard=\"3\",} 1.5");
        assertThat(text).contains("shardline_shard_cutover_wait_seconds{listener=\"orders.v2\",stream=\"or:ders\","
                + "shard=\"3\",} 2.5");
    }

    @Test
    void seriesOfADeletedListenerOrGroupAreRemoved() {
        MetricRegistry registry = filled();
        registry.meter("shardline.listener.orders.records.handled").mark();
        ExportedName.removeUnless(registry, "listener", Set.of("orders"));
        ExportedName.removeUnless(registry, "group", Set.of());
        String text = new DropwizardExporter(registry).text();
        assertThat(text).doesNotContain("listener=\"orders.v2\"").doesNotContain("group=\"g1\"")
                .contains("shardline_listener_records_handled_total{listener=\"orders\",} 1.0")
                .contains("shardline_coordinator_groups 0.0");
        // A removed group's gauges come back when the coordinator reports the group again.
        DropwizardCoordinatorMetrics coordinator = new DropwizardCoordinatorMetrics(registry);
        coordinator.group("g2", 1, 1, 1, 0);
        assertThat(new DropwizardExporter(registry).text()).contains("shardline_coordinator_group_members{group=\"g2\",} 1.0");
    }

    @Test
    void namesRoundTripThroughTheirTemplates() {
        MetricTemplate lag = ShardMetrics.LAG;
        String name = lag.name("orders.v2", "a:b.c", "12");
        assertEquals("shardline.shard.orders.v2.{a:b.c:12}.lag", name);
        assertEquals(List.of("orders.v2", "a:b.c", "12"), lag.match(name).orElseThrow());
        assertEquals("shardline_shard_lag", lag.family());
        assertThat(MetricCatalog.match("shardline.listener.x.handler.custom.count")).isEmpty();
    }

    @Test
    void consumptionMetricNamesDescribeWhatConsumptionMetricsRegisters() {
        MetricRegistry registry = new MetricRegistry();
        new ConsumptionMetrics(registry, "orders.v2");
        Set<MetricTemplate> used = new HashSet<>();
        for (String name : registry.getNames()) {
            MetricCatalog.Match match = MetricCatalog.match(name).orElseThrow(() -> new AssertionError(
                    name + " is registered by ConsumptionMetrics but not in ConsumptionMetricNames"));
            assertEquals(List.of("orders.v2"), match.values(), name);
            used.add(match.template());
        }
        assertEquals(Set.copyOf(ConsumptionMetricNames.TEMPLATES), used);
    }

    @Test
    void jmxPublishesTheRegistry() throws Exception {
        MetricRegistry registry = filled();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (JmxMetrics jmx = JmxMetrics.start(registry)) {
            Set<ObjectName> names = server.queryNames(new ObjectName(JmxMetrics.DOMAIN + ":*"), null);
            List<String> text = new ArrayList<>();
            names.forEach(n -> text.add(n.toString()));
            assertThat(text).anyMatch(n -> n.contains("shardline.listener.orders.v2.records.handled"));
            assertThat(names).hasSizeGreaterThanOrEqualTo(registry.getNames().size());
        }
        assertThat(server.queryNames(new ObjectName(JmxMetrics.DOMAIN + ":*"), null)).isEmpty();
    }

    /** One instance of every catalog metric, plus a handler-defined one. */
    static MetricRegistry filled() {
        MetricRegistry registry = new MetricRegistry();
        ConsumptionMetrics consumption = new ConsumptionMetrics(registry, "orders.v2");
        registry.meter("shardline.listener.orders.v2.records.handled").mark(7);
        registry.timer("shardline.listener.orders.v2.handler.batch-time").update(java.time.Duration.ofMillis(3));
        registry.meter("shardline.listener.orders.v2.shards.fenced").mark();
        assertThat(consumption.handledCount()).isEqualTo(7);
        ShardMetrics shards = new ShardMetrics(registry, () -> 10_000L);
        shards.update("orders.v2", List.of(new ShardStatus("or:ders", 3, "w1-orders.v2-m0", 1, ListenerState.RUNNING,
                42L, 5, null, 1_500L).withCutover(2, 7_500)), 1); // waits at the cutover of epoch 2 since 7.5 s
        // The Redis client's gauges (RedisMetrics.register reads them from a connected client).
        RedisMetrics.TEMPLATES.forEach(t -> registry.gauge(t.name(), () -> () -> 0L));
        RetentionMetrics retention = new RetentionMetrics(registry);
        retention.trimmed("or:ders", 9);
        retention.held("or:ders", 1, 4, 2_000);
        ReshardMetrics reshard = new ReshardMetrics(registry);
        reshard.stream("or:ders", 1, 3);
        reshard.waiting("or:ders", 2);
        MemberMetrics member = new MemberMetrics(registry, "w1-orders.v2-m0");
        member.heartbeat(2_000_000);
        member.epoch(4);
        member.rebalanced();
        member.heartbeatFailed();
        DropwizardCoordinatorMetrics coordinator = new DropwizardCoordinatorMetrics(registry);
        coordinator.heartbeat("g1", ErrorCode.NONE);
        coordinator.heartbeat("g1", firstError());
        coordinator.rebalanced("g1", 2);
        coordinator.memberExpired("g1", "m");
        coordinator.memberFenced("g1", "m");
        coordinator.shardGranted("g1", new ShardId("s", 0), 1);
        coordinator.shardReleased("g1", new ShardId("s", 0), null);
        coordinator.group("g1", 2, 5, 2, 1);
        coordinator.rebalanceTimedOut("g1", "m");
        coordinator.heartbeatAnswered("g1", 300_000);
        coordinator.leadership(3);
        coordinator.assignmentComputed("g1", 1_000);
        DropwizardHandlerMetrics handler = new DropwizardHandlerMetrics(registry, "orders.v2");
        handler.increment("custom.count", 3);
        handler.recordNanos("wait", 100_000_000);
        handler.recordNanos("wait", 150_000_000);
        handler.recordValue("size", 5);
        handler.recordValue("size", 7);
        return registry;
    }

    /** Parses the text strictly; returns the family names seen in TYPE lines. */
    public static Set<String> parse(String text) {
        Set<String> families = new HashSet<>();
        int samples = 0;
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            Matcher meta = META.matcher(line);
            if (meta.matches()) {
                if (meta.group(1).equals("TYPE")) {
                    families.add(meta.group(2));
                }
                continue;
            }
            assertThat(line).as("sample line").matches(SAMPLE);
            samples++;
        }
        assertThat(samples).isGreaterThan(10);
        return families;
    }

    private static ErrorCode firstError() {
        for (ErrorCode code : ErrorCode.values()) {
            if (code != ErrorCode.NONE) {
                return code;
            }
        }
        throw new AssertionError("no error code");
    }
}
