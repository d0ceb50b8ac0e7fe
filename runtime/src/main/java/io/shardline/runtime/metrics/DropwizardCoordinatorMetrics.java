package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricRegistryListener;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.record.ChangeReason;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The coordinator's metrics port over a Dropwizard registry: the pure core's events and what the hosting side
 * measures around it ({@link CoordinatorHostMetrics}: group sizes and epochs, pending revocations, heartbeat
 * latency, leadership, assignment computation time). Called on the
 * coordinator's context; reads (reporters) may come from any thread. Thread-safe.
 */
public final class DropwizardCoordinatorMetrics implements CoordinatorHostMetrics {

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

    /** Shards waiting for their revocation to be reported. */
    public static final MetricTemplate PENDING_REVOCATIONS = new MetricTemplate(
            "shardline.coordinator.group.<group>.pending-revocations", MetricType.GAUGE,
            "Shards members of the group were told to revoke and have not reported revoked yet.");
    /** Heartbeat latency on the coordinator. */
    public static final MetricTemplate HEARTBEAT_LATENCY = new MetricTemplate(
            "shardline.coordinator.group.<group>.heartbeat-latency", MetricType.TIMER,
            "Time from a heartbeat's arrival at the coordinator to its answer (queueing, decision, guarded Redis "
                    + "write).");
    /** Rebalance timeouts. */
    public static final MetricTemplate REBALANCE_TIMEOUTS = new MetricTemplate(
            "shardline.coordinator.group.<group>.rebalance-timeouts", MetricType.METER,
            "Members fenced because a revoked shard did not drain within rebalance.timeout.ms.");
    /** Leadership changes of this worker. */
    public static final MetricTemplate LEADER_CHANGES = new MetricTemplate("shardline.coordinator.leader-changes",
            MetricType.METER, "Times this worker took or lost the coordinator role.");
    /** The leader epoch held. */
    public static final MetricTemplate LEADER_EPOCH = new MetricTemplate("shardline.coordinator.leader-epoch",
            MetricType.GAUGE, "The leader epoch this worker holds as coordinator (0 when it is not the coordinator).");

    /** Every coordinator metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(GROUPS, LEADER_CHANGES, LEADER_EPOCH, MEMBERS,
            GROUP_EPOCH, ASSIGNMENT_EPOCH, PENDING_REVOCATIONS, REBALANCES, ASSIGNMENT_TIME, EXPIRIES, FENCES,
            REBALANCE_TIMEOUTS, HEARTBEATS, HEARTBEAT_LATENCY, HEARTBEAT_ERRORS, SHARDS_GRANTED, SHARDS_RELEASED);

    private final MetricRegistry registry;
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();

    /** Metrics in {@code registry}. */
    public DropwizardCoordinatorMetrics(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        // A group's gauges removed from the registry (its listeners were deleted) are registered again on use.
        registry.addListener(new MetricRegistryListener.Base() {
            @Override
            public void onGaugeRemoved(String name) {
                gauges.remove(name);
            }
        });
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
    public void rebalanceTimedOut(String groupId, String memberId) {
        registry.meter(REBALANCE_TIMEOUTS.name(groupId)).mark();
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

    @Override
    public void group(String groupId, int members, int groupEpoch, int assignmentEpoch, int pendingRevocations) {
        group(groupId, members, groupEpoch, assignmentEpoch);
        set(PENDING_REVOCATIONS.name(groupId), pendingRevocations);
    }

    @Override
    public void heartbeatAnswered(String groupId, long nanos) {
        registry.timer(HEARTBEAT_LATENCY.name(groupId), SummingTimer::new).update(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void leadership(long leaderEpoch) {
        registry.meter(LEADER_CHANGES.name()).mark();
        set(LEADER_EPOCH.name(), leaderEpoch);
    }

    @Override
    public void assignmentComputed(String groupId, long nanos) {
        registry.timer(ASSIGNMENT_TIME.name(groupId), SummingTimer::new).update(nanos, TimeUnit.NANOSECONDS);
    }

    private void set(String name, long value) {
        gauges.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Long>) holder::get);
            return holder;
        }).set(value);
    }
}
