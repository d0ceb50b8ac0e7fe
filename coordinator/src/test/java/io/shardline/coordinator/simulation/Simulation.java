package io.shardline.coordinator.simulation;

import io.shardline.api.assignor.Assignor;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.testing.GroupLogModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * One seeded run: a coordinator host (and, after failovers, its successors and zombie predecessors), N members
 * running {@link io.shardline.coordinator.member.Membership}, the group log ({@link GroupLogModel}), owner keys and
 * a faulty network, on one simulated clock. Faults and membership changes happen until {@link SimConfig#faultEndMs()}; then the
 * network heals and the group must be stable within {@link SimConfig#stabilityBoundMs()}. Invariants are checked
 * after every event. Everything is drawn from the seed, so a seed replays exactly.
 */
final class Simulation {

    static final String GROUP = "g";
    static final String STREAM = "orders";
    /** Events kept per group's audit stream (the runtime's {@code RedisAuditLog.MAX_EVENTS_PER_GROUP}). */
    static final int AUDIT_CAP = 1_000;

    private final long seed;
    private final Random random;
    private final SimConfig config;
    private final Scheduler scheduler;
    private final SimNetwork network;
    /** The group log, on the store's drifting clock. */
    private final GroupLogModel groupLog;
    private final SimRedis redis = new SimRedis();
    private final Invariants invariants = new Invariants(this);
    private final HungDrains hungDrains = new HungDrains(this);
    private long lastFailoverMs = Long.MIN_VALUE / 2;
    private final List<SimHost> hosts = new ArrayList<>();
    private final TreeMap<String, SimMember> members = new TreeMap<>();
    private SimHost leader;
    private int nextMember;
    private int shardCount;
    private long lastUnstableMs;
    private final SimStats stats = new SimStats();
    /** The store's clock runs at this rate of the simulated clock (bounded drift, within +-2%). */
    private final double storeClockRate;

    Simulation(long seed, boolean tracing) {
        this.seed = seed;
        this.scheduler = new Scheduler(tracing);
        this.random = new Random(seed);
        this.config = SimConfig.draw(random);
        this.network = new SimNetwork(scheduler, random, 0.05, 0.03, 150, 20);
        this.shardCount = config.shards();
        this.storeClockRate = 0.98 + random.nextDouble() * 0.04;
        this.groupLog = new GroupLogModel(() -> (long) Math.floor(scheduler.now() * storeClockRate), AUDIT_CAP);
    }

    /** Runs the seed; returns how long after the end of faults the group became stable for good. */
    long run() {
        try {
            leader = newHost();
            leader.configure(new GroupConfig(GROUP, new TreeMap<>(Map.of(STREAM, shardCount)), config.assignor(),
                    config.protocol(), config.sessionTimeoutMs(), config.heartbeatIntervalMs(),
                    config.rebalanceTimeoutMs()),
                    ChangeReason.GROUP_CREATED);
            for (int i = 0; i < config.members(); i++) {
                addMember(Optional.empty());
            }
            for (long t = 500 + random.nextInt(1000); t < config.faultEndMs(); t += 200 + random.nextInt(1300)) {
                scheduler.at(t, () -> "fault", this::fault);
            }
            scheduler.at(config.faultEndMs(), () -> "faults end", this::endFaults);
            long end = config.faultEndMs() + config.stabilityBoundMs();
            long nextStabilityCheck = 0;
            while (scheduler.runNext(end)) {
                invariants.check();
                hungDrains.check();
                if (scheduler.now() >= config.faultEndMs() && scheduler.now() >= nextStabilityCheck) {
                    nextStabilityCheck = scheduler.now() + 20;
                    if (invariants.unstableReason() != null) {
                        lastUnstableMs = scheduler.now();
                    }
                }
            }
            String reason = invariants.unstableReason();
            if (reason != null) {
                throw new InvariantViolation("not stable " + config.stabilityBoundMs() + " ms after faults ended: "
                        + reason);
            }
            stats.add("failover", hosts.size() - 1);
            stats.add("deposed leader writes refused", groupLog.refusedWrites());
            stats.add("messages dropped", network.dropped());
            stats.add("messages duplicated", network.duplicated());
            stats.inc(config.protocol().name().toLowerCase() + " seeds");
            stats.inc(config.assignor() + " seeds");
            return Math.max(0, lastUnstableMs - config.faultEndMs());
        } catch (InvariantViolation | IllegalStateException | IllegalArgumentException e) {
            throw new AssertionError("seed " + seed + " " + config + " failed at t=" + scheduler.now() + ": "
                    + e.getMessage() + "\nreplay with -Dsimulation.seed=" + seed + "\nlast events:\n"
                    + scheduler.trace(), e);
        }
    }

    private SimHost newHost() {
        SimHost host = new SimHost(this, hosts.size());
        hosts.add(host);
        scheduler.after(1 + random.nextInt(100), () -> "tick host " + host.id(), host::tick);
        return host;
    }

    private SimMember addMember(Optional<String> instance) {
        int index = nextMember++;
        Optional<String> instanceId = instance.isPresent() ? instance
                : config.staticMembers() ? Optional.of("pod-" + index) : Optional.empty();
        SimMember m = new SimMember(this, "m" + index, instanceId);
        members.put(m.memberId(), m);
        scheduler.note(() -> "add member " + m.memberId() + " " + instanceId.orElse(""));
        return m;
    }

    private void fault() {
        List<SimMember> alive = members.values().stream().filter(m -> m.alive() && !m.leaving()).toList();
        int dice = random.nextInt(100);
        long faultEnd = config.faultEndMs();
        int session = config.sessionTimeoutMs();
        if (dice < 18 && !alive.isEmpty()) {
            SimMember m = alive.get(random.nextInt(alive.size()));
            stats.inc("crash");
            m.crash();
            long restartAt = scheduler.now() + random.nextInt(2 * session);
            if (restartAt < faultEnd && random.nextInt(3) > 0) {
                boolean replace = m.instanceId().isPresent() && random.nextBoolean();
                scheduler.at(restartAt, () -> "restart " + m.memberId(), () -> {
                    if (replace) {
                        stats.inc("static restart under a new member id");
                        addMember(m.instanceId());
                    } else {
                        m.restart();
                    }
                });
            }
        } else if (dice < 36 && !alive.isEmpty()) {
            SimMember m = alive.get(random.nextInt(alive.size()));
            stats.inc("pause");
            m.pause(Math.min(faultEnd, scheduler.now() + session / 2 + random.nextInt(2 * session)));
        } else if (dice < 48 && !alive.isEmpty()) {
            SimMember m = alive.get(random.nextInt(alive.size()));
            scheduler.note(() -> "leave " + m.memberId());
            stats.inc("leave");
            m.leave();
            long back = scheduler.now() + random.nextInt(session);
            if (m.instanceId().isPresent() && back < faultEnd) {
                scheduler.at(back, () -> "static comeback " + m.instanceId().get(), () -> addMember(m.instanceId()));
            }
        } else if (dice < 65) {
            stats.inc("join");
            addMember(Optional.empty());
        } else if (dice < 74) {
            failover();
        } else if (dice < 82) {
            if (!leader.crashed()) {
                // The leader's process dies: it answers nothing more. Its successor claims after the failure
                // detection (up to 1.5 session timeouts), and inherits only what is left of the leases it granted.
                stats.inc("leader crash");
                leader.crash();
                // The election lands before the faults end, so the stability bound after them still holds.
                long detection = random.nextInt(Math.max(1, (int) Math.min(session * 3L / 2, faultEnd - scheduler.now())));
                scheduler.after(detection, () -> "elect after leader crash", this::failover);
            }
        } else if (!leader.crashed()) {
            int next = Math.max(1, shardCount + random.nextInt(6) - 2);
            ChangeReason reason = next < shardCount ? ChangeReason.RESHARD_ROLLBACK : ChangeReason.SHARD_SET_CHANGED;
            scheduler.note(() -> "reshard " + shardCount + " -> " + next);
            stats.inc(reason.name().toLowerCase());
            shardCount = next;
            leader.configure(leader.group().config().withStreams(Map.of(STREAM, next)), reason);
        }
    }

    private void failover() {
        lastFailoverMs = scheduler.now();
        leader = newHost();
        SimHost next = leader;
        for (SimMember m : members.values()) {
            // Members learn of the new leader up to one session timeout late (Hazelcast membership events).
            scheduler.after(random.nextInt(config.sessionTimeoutMs()), () -> "learn leader " + m.memberId(),
                    () -> m.learnLeader(next));
        }
    }

    private void endFaults() {
        network.heal();
        long alive = members.values().stream().filter(m -> m.alive() && !m.leaving()).count();
        for (long i = alive; i < 2; i++) {
            addMember(Optional.empty());
        }
    }

    Assignor assignor(String name) {
        return AssignorRegistry.builtIn(name);
    }

    SimConfig config() {
        return config;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    SimNetwork network() {
        return network;
    }

    GroupLogModel groupLog() {
        return groupLog;
    }

    SimRedis redis() {
        return redis;
    }

    Invariants invariants() {
        return invariants;
    }

    HungDrains hungDrains() {
        return hungDrains;
    }

    /** When the last failover happened. */
    long lastFailoverMs() {
        return lastFailoverMs;
    }

    Random random() {
        return random;
    }

    long now() {
        return scheduler.now();
    }

    SimHost leader() {
        return leader;
    }

    List<SimHost> hosts() {
        return hosts;
    }

    Collection<SimMember> members() {
        return members.values();
    }

    SimMember member(String memberId) {
        return members.get(memberId);
    }

    SimStats stats() {
        return stats;
    }

    long eventsExecuted() {
        return scheduler.executed();
    }
}
