package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.record.ChangeReason;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The coordinator's {@link CoordinatorMetrics} port over a Dropwizard registry, plus what the hosting side
 * measures around the pure core (group and member counts, assignment computation time). Called on the
 * coordinator's context; reads (reporters) may come from any thread. Thread-safe.
 */
public final class DropwizardCoordinatorMetrics implements CoordinatorMetrics {

    /** Groups the coordinator knows. */
    public static final MetricTemplate GROUPS = new MetricTemplate("shardline.coordinator.groups", MetricType.GAUGE,
            "Groups the coordinator (on the leader) knows.");
    /** Members per group. */
    public static final MetricTemplate MEMBERS = new MetricTemplate("shardline.coordinator.group.<group>.members",
            MetricType.GAUGE, "Members of the group.");
    /** Group epoch. */
    public static final MetricTemplate GROUP_EPOCH = new MetricTemplate("shardline.coordinator.group.<group>.group-epoch",
            MetricType.GAUGE, "The group epoch (bumped by every membership or subscription change).");
    /** Assignment epoch. */
    public static final MetricTemplate ASSIGNMENT_EPOCH = new MetricTemplate(
            "shardline.coordinator.group.<group>.assignment-epoch", MetricType.GAUGE,
            "The epoch of the group's target assignment.");
    /** Rebalances. */
    public static final MetricTemplate REBALANCES = new MetricTemplate("shardline.coordinator.group.<group>.rebalances",
            MetricType.METER, "Target assignment changes of the group.");
    /** Assignment computation time. */
    public static final MetricTemplate ASSIGNMENT_TIME = new MetricTemplate(
            "shardline.coordinator.group.<group>.assignment-time", MetricType.TIMER,
            "Time the assignor took to compute a target assignment.");
    /** Expiries. */
    public static final MetricTemplate EXPIRIES = new MetricTemplate("shardline.coordinator.group.<group>.expiries",
            MetricType.METER, "Members whose lease passed without a heartbeat.");
    /** Fences. */
    public static final MetricTemplate FENCES = new MetricTemplate("shardline.coordinator.group.<group>.fences",
            MetricType.METER, "Members fenced for an invalid epoch or ownership report.");
    /** Heartbeat errors. */
    public static final MetricTemplate HEARTBEAT_ERRORS = new MetricTemplate(
            "shardline.coordinator.group.<group>.heartbeat-errors", MetricType.METER,
            "Heartbeats answered with an error code.");
    /** Heartbeats. */
    public static final MetricTemplate HEARTBEATS = new MetricTemplate("shardline.coordinator.group.<group>.heartbeats",
            MetricType.METER, "Heartbeats answered.");
    /** Shards granted. */
    public static final MetricTemplate SHARDS_GRANTED = new MetricTemplate(
            "shardline.coordinator.group.<group>.shards-granted", MetricType.METER,
            "Shards given to a member with a new owner epoch.");
    /** Shards released. */
    public static final MetricTemplate SHARDS_RELEASED = new MetricTemplate(
            "shardline.coordinator.group.<group>.shards-released", MetricType.METER,
            "Shards that became free (revoked, left, expired or fenced owner).");

    /** Every coordinator metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(GROUPS, MEMBERS, GROUP_EPOCH, ASSIGNMENT_EPOCH,
            REBALANCES, ASSIGNMENT_TIME, EXPIRIES, FENCES, HEARTBEATS, HEARTBEAT_ERRORS, SHARDS_GRANTED,
            SHARDS_RELEASED);

    private final MetricRegistry registry;
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();

    /** Metrics in {@code registry}. */
    public DropwizardCoordinatorMetrics(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        registry.gauge(GROUPS.name(), () -> (Gauge<Integer>) () -> (int) gauges.keySet().stream()
                .filter(k -> k.endsWith(".members")).count());
    }

    @Override
    public void heartbeat(String groupId, ErrorCode error) {
        registry.meter(HEARTBEATS.name(groupId)).mark();
        if (error != ErrorCode.NONE) {
            registry.meter(HEARTBEAT_ERRORS.name(groupId)).mark();
        }
    }

    @Override
    public void rebalanced(String groupId, int assignmentEpoch) {
        registry.meter(REBALANCES.name(groupId)).mark();
        set(ASSIGNMENT_EPOCH.name(groupId), assignmentEpoch);
    }

    @Override
    public void memberExpired(String groupId, String memberId) {
        registry.meter(EXPIRIES.name(groupId)).mark();
    }

    @Override
    public void memberFenced(String groupId, String memberId) {
        registry.meter(FENCES.name(groupId)).mark();
    }

    @Override
    public void shardReleased(String groupId, ShardId shard, ChangeReason reason) {
        registry.meter(SHARDS_RELEASED.name(groupId)).mark();
    }

    @Override
    public void shardGranted(String groupId, ShardId shard, int ownerEpoch) {
        registry.meter(SHARDS_GRANTED.name(groupId)).mark();
    }

    /** The hosting side's view after a coordinator step: the group's size and epochs. */
    public void group(String groupId, int members, int groupEpoch, int assignmentEpoch) {
        set(MEMBERS.name(groupId), members);
        set(GROUP_EPOCH.name(groupId), groupEpoch);
        set(ASSIGNMENT_EPOCH.name(groupId), assignmentEpoch);
    }

    /** The assignor of {@code groupId} took {@code nanos} to compute a target. */
    public void assignmentComputed(String groupId, long nanos) {
        registry.timer(ASSIGNMENT_TIME.name(groupId)).update(nanos, TimeUnit.NANOSECONDS);
    }

    private void set(String name, long value) {
        gauges.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Long>) holder::get);
            return holder;
        }).set(value);
    }
}
