package io.shardline.runtime.control;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.member.FencedShardRelay;
import io.shardline.runtime.member.MemberIdentity;
import io.shardline.runtime.member.MemberShardsPort;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.metrics.MemberMetrics;
import io.shardline.runtime.redis.ShardZones;
import io.shardline.runtime.shard.MemberLease;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.ShardRedis;
import io.shardline.runtime.reshard.ReleaseHints;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Starts and stops one listener on this worker with its members: the {@link Listener} (streams and groups
 * ensured, one handler instance per member) and one {@link MemberVerticle} heartbeat loop per member. A
 * listener starts paused when asked (before any member joins, so nothing is read), and a shard the
 * {@code shardPaused} test names is paused as it is acquired, before its first read. Stopping makes every
 * member leave its group (shards revoked and drained, the leave answered), then stops the handlers.
 * Stateless apart from its settings; thread-safe.
 */
public final class ListenerRunner {

    /**
     * A listener running here, its heartbeat loops, their deployment ids and their metrics, and how to make a new
     * loop for member {@code i} (a member restart).
     */
    public record Started(Listener listener, List<MemberVerticle> members, List<String> deployments,
                          List<MemberMetrics> metrics, java.util.function.IntFunction<MemberVerticle> respawn) {

        /** Copies. */
        public Started {
            Objects.requireNonNull(listener, "listener");
            members = List.copyOf(members);
            deployments = List.copyOf(deployments);
            metrics = List.copyOf(metrics);
        }
    }

    private final Vertx vertx;
    private final Context context;
    private final ShardRedis redis;
    private final WorkerConfig config;
    private final MetricRegistry registry;
    private final Supplier<LeaderView> view;
    private final LongSupplier clockMs;
    private final ShardZones zones;
    /** Shards a member's poller stopped as fenced go to that member's heartbeat loop (which rejoins). */
    private final FencedShardRelay fences = new FencedShardRelay();
    /** Runs before a listener starts (the Redis ACL check of its keys); a failure fails the start. */
    private final Function<ListenerDefinition, Future<Void>> preflight;
    /** The members' events: fences to their heartbeat loops, drained reports to the leader's resharding task. */
    private final MemberShards.Events events;

    /**
     * A runner. Create it on a plain thread (not an event loop).
     *
     * @param config cluster name, worker id, heartbeat interval and session timeout
     * @param clockMs monotonic milliseconds for the heartbeat loops
     * @param zones the zones of the shards' Redis nodes ({@code redis.zones}), told to the coordinator
     */
    public ListenerRunner(Vertx vertx, ShardRedis redis, WorkerConfig config, MetricRegistry registry,
                          Supplier<LeaderView> view, LongSupplier clockMs, ShardZones zones) {
        this(vertx, redis, config, registry, view, clockMs, zones, d -> Future.succeededFuture());
    }

    /**
     * A runner that runs {@code preflight} before each listener start (e.g. the Redis ACL check of its keys).
     * Create it on a plain thread (not an event loop).
     */
    public ListenerRunner(Vertx vertx, ShardRedis redis, WorkerConfig config, MetricRegistry registry,
                          Supplier<LeaderView> view, LongSupplier clockMs, ShardZones zones,
                          Function<ListenerDefinition, Future<Void>> preflight) {
        this.zones = Objects.requireNonNull(zones, "zones");
        this.preflight = Objects.requireNonNull(preflight, "preflight");
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.context = vertx.getOrCreateContext();
        this.redis = Objects.requireNonNull(redis, "redis");
        this.config = Objects.requireNonNull(config, "config");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.view = Objects.requireNonNull(view, "view");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        ReleaseHints hints = new ReleaseHints(vertx, config.clusterName());
        this.events = new MemberShards.Events() {
            @Override
            public void fenced(String memberId, ShardId shard, long epoch, String reason) {
                fences.fenced(memberId, shard, epoch, reason);
            }

            @Override
            public void failed(String memberId, ShardId shard, String reason) {
                fences.failed(memberId, shard, reason);
            }

            @Override
            public void drained(ShardId shard, String group) {
                hints.drained(shard, group);
            }
        };
    }

    /**
     * Starts {@code definition}; its members join their group.
     *
     * @param paused start with every member paused (target state {@code PAUSED})
     * @param shardPaused whether a shard is paused on its own; asked at every acquisition
     */
    public Future<Started> start(ListenerDefinition definition, boolean paused, Predicate<ShardId> shardPaused) {
        // Each member's handler calls and acks are gated by the lease its heartbeat loop computes, on that loop's clock.
        return preflight.apply(definition).compose(checked -> Listener.start(vertx, redis, definition,
                        config.workerId(), registry, events, System::currentTimeMillis,
                        memberId -> new MemberLease(clockMs), config.heartbeatIntervalMs()))
                .compose(listener -> (paused ? listener.pause() : Future.<Void>succeededFuture())
                        .compose(v -> deployMembers(definition, listener, shardPaused))
                        .recover(e -> listener.close().transform(ignored -> Future.failedFuture(e))));
    }

    /** Why a shard of member {@code memberId} stopped for good (listener FAILED there), if one did. */
    public java.util.Optional<String> failure(String memberId) {
        return fences.failure(memberId);
    }

    /** Stops a started listener: members leave their group, loops are undeployed, handlers stop. */
    public Future<Void> stop(Started started) {
        if (started == null) {
            return Future.succeededFuture();
        }
        started.members().forEach(m -> fences.unregister(m.memberId()));
        return Future.join(started.members().stream().map(MemberVerticle::leave).toList()).otherwiseEmpty()
                .compose(v -> Future.join(started.deployments().stream().map(vertx::undeploy).toList()))
                .otherwiseEmpty()
                .compose(v -> started.listener().close())
                .eventually(() -> {
                    started.metrics().forEach(MemberMetrics::close);
                    return Future.succeededFuture();
                });
    }

    private Future<Started> deployMembers(ListenerDefinition definition, Listener listener,
                                          Predicate<ShardId> shardPaused) {
        GroupConfig plain = groupConfig(definition);
        return zones.racks(plain.streams()).map(plain::withRacks)
                .compose(group -> deployMembers(definition, listener, shardPaused, group));
    }

    private Future<Started> deployMembers(ListenerDefinition definition, Listener listener,
                                          Predicate<ShardId> shardPaused, GroupConfig group) {
        List<MemberVerticle> members = new ArrayList<>();
        List<MemberMetrics> metrics = new ArrayList<>();
        List<Future<String>> deployed = new ArrayList<>();
        for (MemberShards shards : listener.members()) {
            metrics.add(new MemberMetrics(registry, shards.memberId()));
        }
        java.util.function.IntFunction<MemberVerticle> respawn = i -> {
            MemberShards shards = listener.members().get(i);
            MemberVerticle member = new MemberVerticle(config.clusterName(), shards.memberId(),
                    identity(definition, shards.memberId(), config.rack()), group, pausingPort(shards, shardPaused), view, clockMs,
                    group.heartbeatIntervalMs(), 50)
                    .metrics(metrics.get(i));
            fences.register(shards.memberId(), member::shardFenced);
            return member;
        };
        for (int i = 0; i < listener.members().size(); i++) {
            MemberVerticle member = respawn.apply(i);
            members.add(member);
            deployed.add(deploy(member));
        }
        return Future.all(deployed).map(done -> new Started(listener, members, done.list(), metrics, respawn))
                .recover(e -> Future.join(deployed.stream().filter(Future::succeeded)
                                .map(d -> vertx.undeploy(d.result())).toList())
                        .transform(ignored -> {
                            metrics.forEach(MemberMetrics::close);
                            return Future.failedFuture(e);
                        }));
    }

    /**
     * Restarts member {@code memberId} of {@code started} (Connect's task restart): it leaves its group (its shards
     * are revoked and drained), its loop is undeployed, and a new loop with the same id joins again from member
     * epoch 0 (a shard failure it had is forgotten). The other members keep running.
     *
     * @return {@code started} with the new loop
     */
    public Future<Started> restartMember(Started started, String memberId) {
        int i = started.members().stream().map(MemberVerticle::memberId).toList().indexOf(memberId);
        if (i < 0) {
            return Future.failedFuture(new IllegalArgumentException("no member " + memberId));
        }
        fences.unregister(memberId);
        return started.members().get(i).leave().otherwiseEmpty()
                .compose(v -> vertx.undeploy(started.deployments().get(i))).otherwiseEmpty()
                .compose(v -> {
                    MemberVerticle fresh = started.respawn().apply(i);
                    return deploy(fresh).map(id -> {
                        List<MemberVerticle> members = new ArrayList<>(started.members());
                        List<String> deployments = new ArrayList<>(started.deployments());
                        members.set(i, fresh);
                        deployments.set(i, id);
                        return new Started(started.listener(), members, deployments, started.metrics(),
                                started.respawn());
                    });
                });
    }

    /**
     * Deploys a loop from the runner's own context (part of no deployment): deployed from a member's context, the
     * loop would be that member's child and fail to deploy while it is being undeployed.
     */
    private Future<String> deploy(MemberVerticle member) {
        Promise<String> id = Promise.promise();
        context.runOnContext(v -> vertx.deployVerticle(member).onComplete(id));
        return id.future();
    }

    /**
     * The member's shards, with a paused shard paused right after it is acquired: both calls run on the
     * member's context in order, and the first read is scheduled only after {@code onAssigned} returned.
     */
    private static MemberShardsPort pausingPort(MemberShards shards, Predicate<ShardId> shardPaused) {
        MemberShardsPort port = MemberShardsPort.of(shards);
        return new MemberShardsPort() {
            @Override
            public Future<Void> acquire(ShardId shard, long ownerEpoch) {
                Future<Void> acquired = port.acquire(shard, ownerEpoch);
                if (shardPaused.test(shard)) {
                    shards.pause(shard);
                }
                return acquired;
            }

            @Override
            public Future<Void> release(ShardId shard) {
                return port.release(shard);
            }

            @Override
            public Future<Void> fenceAll() {
                return port.fenceAll();
            }

            @Override
            public void leaseUntil(long deadlineMs) {
                port.leaseUntil(deadlineMs);
            }
        };
    }

    /**
     * What a member tells the coordinator about itself besides its id: static instance id (the member id), the
     * worker's zone and the listener's member weight.
     */
    static MemberIdentity identity(ListenerDefinition definition, String memberId, Optional<String> rack) {
        return new MemberIdentity(definition.config().staticMembership() ? Optional.of(memberId) : Optional.empty(),
                rack, definition.config().memberWeight());
    }

    /** The group configuration a listener's members send to the coordinator. */
    static GroupConfig groupConfig(ListenerDefinition definition, WorkerConfig config) {
        TreeMap<String, Integer> streams = new TreeMap<>();
        for (StreamSpec s : definition.config().streams()) {
            streams.put(s.name(), s.shardCount());
        }
        ListenerConfig listener = definition.config();
        return new GroupConfig(listener.group(), streams, listener.assignor(), listener.rebalanceProtocol(),
                listener.sessionTimeoutMs(config.sessionTimeoutMs()),
                listener.heartbeatIntervalMs(config.heartbeatIntervalMs()),
                listener.rebalanceTimeoutMs(config.rebalanceTimeoutMs()), null, definition.revision());
    }

    private GroupConfig groupConfig(ListenerDefinition definition) {
        return groupConfig(definition, config);
    }
}
