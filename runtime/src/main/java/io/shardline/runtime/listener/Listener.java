package io.shardline.runtime.listener;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.Handler;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.ConsumptionMetrics;
import io.shardline.runtime.shard.DropwizardHandlerMetrics;
import io.shardline.runtime.shard.MemberContext;
import io.shardline.runtime.shard.MemberLease;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.shard.ShardRedis;
import io.shardline.runtime.topology.StreamSpec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running listener on one worker: the shard streams and consumer groups exist, and its
 * {@code concurrency} logical members ({@code <worker>-<listener>-m<i>}) each have a started handler
 * instance and a {@link MemberShards} poller, ready for the member heartbeat loop to acquire and release
 * shards. Pause and resume apply to every member. Thread-safe.
 */
public final class Listener {

    private static final Logger LOG = LoggerFactory.getLogger(Listener.class);

    private final ListenerDefinition definition;
    private final List<MemberShards> members;

    private Listener(ListenerDefinition definition, List<MemberShards> members) {
        this.definition = definition;
        this.members = List.copyOf(members);
    }

    /**
     * Creates missing shard streams and groups (at {@code start.from}), loads the shard function library,
     * and starts the members.
     *
     * @param workerId the worker's id, the prefix of member ids
     * @param events told when a member loses a shard to fencing
     */
    public static Future<Listener> start(Vertx vertx, ShardRedis redis, ListenerDefinition definition, String workerId,
                                         MetricRegistry registry, MemberShards.Events events, LongSupplier clockMs) {
        return start(vertx, redis, definition, workerId, registry, events, clockMs, memberId -> MemberLease.unbounded());
    }

    /**
     * As {@link #start(Vertx, ShardRedis, ListenerDefinition, String, MetricRegistry, MemberShards.Events,
     * LongSupplier)}, with each member's handler calls and acknowledgements gated by the lease {@code leases} gives
     * for its member id (the worker's heartbeat loop keeps it up to date through {@link MemberShards#leaseUntil}).
     */
    public static Future<Listener> start(Vertx vertx, ShardRedis redis, ListenerDefinition definition, String workerId,
                                         MetricRegistry registry, MemberShards.Events events, LongSupplier clockMs,
                                         Function<String, MemberLease> leases) {
        return start(vertx, redis, definition, workerId, registry, events, clockMs, leases, 1_000);
    }

    /**
     * As {@link #start(Vertx, ShardRedis, ListenerDefinition, String, MetricRegistry, MemberShards.Events,
     * LongSupplier, Function)}, on a worker heartbeating every {@code workerHeartbeatIntervalMs} (a shard waiting at a
     * resharding cutover polls at a quarter of the group's heartbeat interval).
     */
    public static Future<Listener> start(Vertx vertx, ShardRedis redis, ListenerDefinition definition, String workerId,
                                         MetricRegistry registry, MemberShards.Events events, LongSupplier clockMs,
                                         Function<String, MemberLease> leases, int workerHeartbeatIntervalMs) {
        ListenerConfig config = definition.config();
        ConsumerSettings settings = config.consumerSettings(workerHeartbeatIntervalMs);
        ShardCommands commands = new ShardCommands(redis);
        List<ShardId> shards = new ArrayList<>();
        for (StreamSpec stream : config.streams()) {
            shards.addAll(stream.shards());
        }
        ConsumptionMetrics metrics = new ConsumptionMetrics(registry, config.name());
        // In chunks: a listener of 100,000 shards must not put 100,000 commands in the pool's wait queue at once.
        // A shard a resharding retired meanwhile (the listener's count is the one before a change that completed)
        // gets no group and no key: its members are never assigned it (docs/protocol.md section 8b).
        return commands.loadLibrary()
                .compose(v -> Chunked.map(shards, Chunked.POOL_CHUNK,
                        shard -> commands.ensureGroup(shard, config.group(), config.startId())))
                .compose(created -> {
                    logRetired(config.name(), shards, created);
                    List<MemberShards> members = new ArrayList<>();
                    List<Future<Void>> started = new ArrayList<>();
                    for (int i = 0; i < config.concurrency(); i++) {
                        String memberId = workerId + "-" + config.name() + "-m" + i;
                        HandlerPlugin handler = new HandlerPlugin(definition.handler(),
                                Plugins.newInstance(definition.handler(), Handler.class));
                        MemberContext context = new MemberContext(config.name(), memberId, config.group(),
                                definition.handlerConfig(), new DropwizardHandlerMetrics(registry, config.name()));
                        MemberShards member = new MemberShards(vertx, redis, handler, context, settings,
                                events, metrics, clockMs, System::nanoTime, leases.apply(memberId));
                        members.add(member);
                        started.add(member.start());
                    }
                    return Future.all(started).map(ok -> {
                        LOG.info("Listener {} started: handler {}, streams {}, group {}, {} member(s)", config.name(),
                                definition.handler().className(), config.streams(), config.group(), members.size());
                        return new Listener(definition, members);
                    });
                });
    }

    private static void logRetired(String name, List<ShardId> shards, List<Boolean> created) {
        List<ShardId> retired = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            if (!created.get(i)) {
                retired.add(shards.get(i));
            }
        }
        if (!retired.isEmpty()) {
            LOG.info("Listener {}: {} shard(s) are retired by a resharding, no group created there: {}", name,
                    retired.size(), retired);
        }
    }

    /** The listener's definition. */
    public ListenerDefinition definition() {
        return definition;
    }

    /** The name. */
    public String name() {
        return definition.name();
    }

    /** The logical members on this worker, {@code m0} first. */
    public List<MemberShards> members() {
        return members;
    }

    /** Every shard of every stream of the listener. */
    public List<ShardId> shards() {
        return definition.config().streams().stream().flatMap(s -> s.shards().stream()).toList();
    }

    /** Stops reading on every member (ownership and heartbeats continue). */
    public Future<Void> pause() {
        return Future.all(members.stream().map(MemberShards::pauseAll).toList()).mapEmpty();
    }

    /** Resumes reading on every member. */
    public Future<Void> resume() {
        return Future.all(members.stream().map(MemberShards::resumeAll).toList()).mapEmpty();
    }

    /** Releases every shard and stops the handlers. */
    public Future<Void> close() {
        return Future.join(members.stream().map(MemberShards::close).toList()).mapEmpty();
    }
}
