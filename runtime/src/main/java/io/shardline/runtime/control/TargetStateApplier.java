package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the persisted target states ({@link ListenerStateStore}) to the listeners running on this worker:
 * every interval (the heartbeat interval, so a pause written on any worker takes effect here within one)
 * it reads a {@link TargetStates} snapshot and makes each local listener match it: {@code PAUSED} and
 * {@code STOPPED} pause every member (members keep their shards and heartbeats), {@code STARTED} resumes
 * them, and each owned shard is paused or resumed as the paused-shard set says. Pause and resume are
 * idempotent, so applying the whole snapshot every time also covers shards a member acquired since the
 * last poll.
 *
 * <p>Leaving the group on {@code STOPPED} (releasing the assignment) is the worker's job: its
 * {@code ListenerSupervisor} stops a stopped listener before it calls {@link #apply}, so only paused and
 * started listeners reach it there. {@code transitions} is told of every target-state change of a listener
 * (also once per listener at the first poll).
 *
 * <p>Thread-safe; at most one poll runs at a time.
 */
public final class TargetStateApplier implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetStateApplier.class);

    private final Vertx vertx;
    private final ListenerStateStore store;
    private final Supplier<Collection<Listener>> listeners;
    private final BiConsumer<String, TargetState> transitions;
    private final Map<String, TargetState> applied = new HashMap<>();
    private long timer = -1;
    private boolean polling;

    /**
     * An applier.
     *
     * @param listeners the listeners running on this worker now
     * @param transitions told {@code (listener, new target state)} when a listener's target state changes
     */
    public TargetStateApplier(Vertx vertx, ListenerStateStore store, Supplier<Collection<Listener>> listeners,
                              BiConsumer<String, TargetState> transitions) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.store = Objects.requireNonNull(store, "store");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.transitions = Objects.requireNonNull(transitions, "transitions");
    }

    /** Polls every {@code intervalMs} until {@link #close()}. */
    public synchronized void start(long intervalMs) {
        if (timer < 0) {
            timer = vertx.setPeriodic(1, intervalMs, id -> poll());
        }
    }

    /** Reads the target states and applies them now (skipped while a poll runs); never fails. */
    public Future<Void> poll() {
        synchronized (this) {
            if (polling) {
                return Future.succeededFuture();
            }
            polling = true;
        }
        return store.snapshot()
                .compose(this::apply)
                .recover(e -> {
                    LOG.warn("Could not apply listener target states: {}", e.getMessage());
                    return Future.succeededFuture();
                })
                .eventually(() -> {
                    synchronized (this) {
                        polling = false;
                    }
                    return Future.succeededFuture();
                });
    }

    /** Makes every local listener match {@code states}. */
    public Future<Void> apply(TargetStates states) {
        List<Future<Void>> actions = new ArrayList<>();
        for (Listener listener : listeners.get()) {
            String name = listener.name();
            TargetState target = states.targetState(name);
            TargetState before;
            synchronized (this) {
                before = applied.put(name, target);
            }
            if (before != target) {
                LOG.info("Listener {}: applying target state {} (was {})", name, target, before == null ? "-" : before);
                transitions.accept(name, target);
            }
            actions.add(target == TargetState.PAUSED || target == TargetState.STOPPED ? listener.pause()
                    : listener.resume());
            Set<ShardId> paused = states.pausedShards(name);
            for (MemberShards member : listener.members()) {
                for (ShardId shard : member.ownedShards()) {
                    actions.add(paused.contains(shard) ? member.pause(shard) : member.resume(shard));
                }
            }
        }
        return Future.join(actions).mapEmpty();
    }

    /** Stops polling. */
    @Override
    public synchronized void close() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
