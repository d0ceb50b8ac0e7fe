package io.shardline.runtime.control;

import io.shardline.api.config.ConfigError;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on this worker every listener the cluster defines, as Kafka Connect's workers run every connector
 * of the config topic: the listeners of {@code listeners.dir} and those created over REST (stored in Redis,
 * {@link ListenerConfigStore}). Every heartbeat interval, and at once when another worker publishes a
 * refresh, it reads the control revision; when it moved (every write moves it) it reads the stored
 * definitions and target states and reconciles:
 * <ul>
 *   <li>a listener defined and not {@code STOPPED} that does not run here is started (its members join
 *       the group), paused first when its target state is {@code PAUSED};</li>
 *   <li>a running listener whose stored definition changed is stopped and started again; one deleted, or
 *       whose target state is {@code STOPPED}, is stopped: its members leave the group (releasing the
 *       assignment, KIP-875) and its handlers stop;</li>
 *   <li>then the target states are applied to what runs ({@link TargetStateApplier}: pause and resume,
 *       per-shard pause; a newly acquired shard that is paused is paused before its first read).</li>
 * </ul>
 * A listener that cannot start here (invalid on this worker, a placeholder it cannot resolve, a handler
 * whose start throws) is kept as FAILED with the reason and retried only when its definition changes or it
 * is restarted. All changes run one at a time, in order.
 *
 * <p>Thread-safe.
 */
public final class ListenerSupervisor implements LocalListeners {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerSupervisor.class);

    private final Vertx vertx;
    private final Context context;
    private final String workerId;
    private final ListenerRunner runner;
    private final Plugins plugins;
    private final Placeholders placeholders;
    private final RestConfigPolicy restPolicy;
    private final Map<String, ListenerDefinition> files;
    private final ListenerConfigStore configs;
    private final TargetStateApplier applier;
    private final ListenerStateStore states;
    private final Map<String, RunningListener> running = new ConcurrentHashMap<>();
    private volatile TargetStates lastStates = TargetStates.EMPTY;
    /** The control revision last reconciled with; a poll that reads the same revision has nothing to do. */
    private volatile long reconciledRevision = -1;
    private Future<?> queue = Future.succeededFuture();
    private boolean polling;
    private boolean pollAgain;
    private boolean closed;
    private long timer = -1;

    /**
     * A supervisor; nothing runs before {@link #start}. Create it on a plain thread (not an event loop): its
     * steps run on a context of its own, part of no deployment.
     *
     * @param runner starts and stops one listener with its members
     * @param fileDefinitions the listeners of {@code listeners.dir}, validated
     */
    public ListenerSupervisor(Vertx vertx, String workerId, ListenerRunner runner, Plugins plugins,
                              Placeholders placeholders, List<ListenerDefinition> fileDefinitions,
                              ListenerConfigStore configs, ListenerStateStore states) {
        this(vertx, workerId, runner, plugins, placeholders, RestConfigPolicy.NONE, fileDefinitions, configs, states);
    }

    /**
     * A supervisor that resolves in stored (REST) configurations only the placeholders {@code restPolicy}
     * allows; a stored listener with any other is FAILED here, and nothing of it is resolved.
     */
    public ListenerSupervisor(Vertx vertx, String workerId, ListenerRunner runner, Plugins plugins,
                              Placeholders placeholders, RestConfigPolicy restPolicy,
                              List<ListenerDefinition> fileDefinitions, ListenerConfigStore configs,
                              ListenerStateStore states) {
        this.restPolicy = Objects.requireNonNull(restPolicy, "restPolicy");
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.context = vertx.getOrCreateContext();
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.placeholders = Objects.requireNonNull(placeholders, "placeholders");
        Map<String, ListenerDefinition> byName = new TreeMap<>();
        fileDefinitions.forEach(d -> byName.put(d.name(), d));
        this.files = Map.copyOf(byName);
        this.configs = Objects.requireNonNull(configs, "configs");
        this.states = Objects.requireNonNull(states, "states");
        this.applier = new TargetStateApplier(vertx, states, this::listeners,
                (listener, state) -> LOG.info("Listener {} target state is now {}", listener, state));
    }

    /** Reconciles once (completes when every listener that should run here started), then every {@code intervalMs}. */
    public Future<Void> start(long intervalMs) {
        return poll().onComplete(ar -> {
            synchronized (this) {
                if (!closed) {
                    timer = vertx.setPeriodic(intervalMs, intervalMs, id -> poll());
                }
            }
        });
    }

    /** The listeners running here now (not the failed ones). */
    public List<Listener> listeners() {
        return running.values().stream().map(RunningListener::listener).filter(Objects::nonNull).toList();
    }

    /** The member heartbeat loops running here now. */
    public List<MemberVerticle> members() {
        return running.values().stream().flatMap(r -> r.members().stream()).toList();
    }

    @Override
    public List<String> names() {
        return running.keySet().stream().sorted().toList();
    }

    @Override
    public Future<List<MemberStatus>> members(String listener) {
        List<RunningListener> selected = running.values().stream()
                .filter(r -> listener == null || r.name().equals(listener)).toList();
        List<Future<List<MemberStatus>>> all = selected.stream()
                .map(r -> r.status(workerId, lastStates.targetState(r.name()), runner::failure)).toList();
        return Future.all(all).map(done -> {
            List<MemberStatus> out = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                out.addAll(done.<List<MemberStatus>>resultAt(i));
            }
            return out;
        });
    }

    @Override
    public Future<List<String>> restart(String listener, boolean onlyFailed) {
        RunningListener current = running.get(listener);
        if (current == null) {
            return Future.succeededFuture(List.of());
        }
        if (onlyFailed && current.failure() == null) {
            // Connect's onlyFailed: only the members whose shard stopped for good restart; the others keep running.
            List<String> failed = current.members().stream().map(MemberVerticle::memberId)
                    .filter(id -> runner.failure(id).isPresent()).toList();
            failed.forEach(id -> restartMember(listener, id));
            return Future.succeededFuture(failed);
        }
        List<String> ids = current.memberIds(workerId);
        LOG.info("Listener {}: restart requested ({})", listener, onlyFailed ? "it failed here" : "all members");
        enqueue(() -> restartNow(current));
        return Future.succeededFuture(ids);
    }

    @Override
    public Future<List<String>> restartMember(String listener, String memberId) {
        RunningListener current = running.get(listener);
        if (current == null || !current.memberIds(workerId).contains(memberId)) {
            return Future.succeededFuture(List.of());
        }
        LOG.info("Listener {}: restart of member {} requested", listener, memberId);
        if (current.started() == null) {
            enqueue(() -> restartNow(current)); // failed to start: only a start of the listener brings its members
        } else {
            enqueue(() -> {
                RunningListener now = running.get(listener);
                if (now == null || now.started() == null) {
                    return Future.succeededFuture();
                }
                return runner.restartMember(now.started(), memberId)
                        .map(started -> {
                            running.replace(listener, now, RunningListener.running(listener, now.stored(), started));
                            return (Void) null;
                        })
                        .recover(e -> {
                            LOG.warn("Listener {}: restart of member {} failed: {}", listener, memberId, e.getMessage());
                            return Future.succeededFuture();
                        });
            });
        }
        return Future.succeededFuture(List.of(memberId));
    }

    @Override
    public void refresh() {
        poll();
    }

    /** Reads the stored definitions and target states and reconciles (coalesced while one runs); never fails. */
    public Future<Void> poll() {
        synchronized (this) {
            if (closed) {
                return Future.succeededFuture();
            }
            if (polling) {
                pollAgain = true;
                return Future.succeededFuture();
            }
            polling = true;
        }
        return states.revision()
                .compose(revision -> revision == reconciledRevision ? Future.<Void>succeededFuture() : readAndReconcile())
                .recover(e -> {
                    LOG.warn("Could not read the stored listeners and target states: {}", e.getMessage());
                    return Future.succeededFuture();
                })
                .eventually(() -> {
                    boolean again;
                    synchronized (this) {
                        polling = false;
                        again = pollAgain;
                        pollAgain = false;
                    }
                    return again ? poll() : Future.succeededFuture();
                });
    }

    /** Reads every stored definition and target state and reconciles with them. */
    private Future<Void> readAndReconcile() {
        Future<Map<String, ListenerConfigStore.Stored>> stored = configs.stored();
        Future<TargetStates> targets = states.snapshot();
        return Future.all(stored, targets).compose(ok -> enqueue(() -> reconcile(stored.result(), targets.result())
                .onSuccess(v -> reconciledRevision = targets.result().revision())));
    }

    /**
     * Stops polling and stops nothing else: completes when the change in progress (if any) finished, so the
     * worker's stop sequence sees a settled set of {@link #listeners()} and {@link #members()}.
     */
    public Future<Void> close() {
        synchronized (this) {
            closed = true;
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
        }
        return enqueue(Future::succeededFuture);
    }

    private Future<Void> reconcile(Map<String, ListenerConfigStore.Stored> stored, TargetStates targets) {
        lastStates = targets;
        Map<String, ListenerConfigStore.Stored> wanted = new TreeMap<>(stored);
        files.keySet().forEach(wanted::remove);
        List<Future<Void>> steps = new ArrayList<>();
        for (RunningListener r : new ArrayList<>(running.values())) {
            String name = r.name();
            boolean isFile = files.containsKey(name);
            String why = null;
            if (!isFile && !wanted.containsKey(name)) {
                why = "it was deleted";
            } else if (targets.targetState(name) == TargetState.STOPPED) {
                why = "its target state is STOPPED";
            } else if (!isFile && !wanted.get(name).config().equals(r.stored())) {
                why = "its configuration changed";
            }
            if (why != null) {
                LOG.info("Listener {}: stopping on {} because {}", name, workerId, why);
                steps.add(stop(r));
            }
        }
        return Future.join(steps).otherwiseEmpty().compose(v -> {
            List<Future<Void>> starts = new ArrayList<>();
            for (String name : files.keySet()) {
                if (!running.containsKey(name) && targets.targetState(name) != TargetState.STOPPED) {
                    starts.add(startFile(files.get(name), targets));
                }
            }
            wanted.forEach((name, config) -> {
                if (!running.containsKey(name) && targets.targetState(name) != TargetState.STOPPED) {
                    starts.add(startStored(name, config, targets));
                }
            });
            return Future.join(starts).otherwiseEmpty();
        }).compose(v -> applier.apply(lastStates)).otherwiseEmpty();
    }

    private Future<Void> restartNow(RunningListener r) {
        if (running.get(r.name()) != r) {
            return Future.succeededFuture(); // changed meanwhile; the reconcile already handled it
        }
        return stop(r).compose(v -> {
            TargetStates targets = lastStates;
            if (targets.targetState(r.name()) == TargetState.STOPPED) {
                return Future.succeededFuture();
            }
            ListenerDefinition file = files.get(r.name());
            if (file != null) {
                return startFile(file, targets);
            }
            return configs.stored(r.name()).compose(config -> config.isPresent()
                    ? startStored(r.name(), config.get(), targets) : Future.succeededFuture());
        }).compose(v -> applier.apply(lastStates)).otherwiseEmpty();
    }

    private Future<Void> startFile(ListenerDefinition definition, TargetStates targets) {
        return launch(definition.name(), null, definition.config().concurrency(), Future.succeededFuture(definition),
                targets);
    }

    private Future<Void> startStored(String name, ListenerConfigStore.Stored stored, TargetStates targets) {
        Map<String, String> config = stored.config();
        Future<ListenerDefinition> definition = vertx.executeBlocking(() -> {
            Map<String, List<String>> refused = restPolicy.problems(config);
            if (!refused.isEmpty()) {
                throw new IllegalArgumentException("refused on worker " + workerId + ": " + refused.entrySet().stream()
                        .map(e -> e.getKey() + ": " + String.join("; ", e.getValue())).collect(Collectors.joining("; ")));
            }
            List<ConfigError> errors = new ArrayList<>();
            return ListenerLoader.fromStored(name, config, plugins, placeholders, errors)
                    .map(d -> d.withRevision(stored.revision()))
                    .orElseThrow(() -> new IllegalArgumentException("invalid on worker " + workerId + ": "
                            + errors.stream().map(ConfigError::toString).collect(Collectors.joining("; "))));
        }, false);
        return launch(name, config, concurrencyOf(config), definition, targets);
    }

    private Future<Void> launch(String name, Map<String, String> stored, int concurrency,
                                Future<ListenerDefinition> definition, TargetStates targets) {
        boolean paused = targets.targetState(name) == TargetState.PAUSED;
        return definition
                .compose(d -> runner.start(d, paused, shard -> lastStates.pausedShards(name).contains(shard)))
                .map(started -> {
                    running.put(name, RunningListener.running(name, stored, started));
                    LOG.info("Listener {} runs on {} with {} member(s){}", name, workerId, started.members().size(),
                            paused ? " (paused)" : "");
                    return (Void) null;
                })
                .recover(e -> {
                    String reason = e.getMessage() == null ? e.toString() : e.getMessage();
                    LOG.warn("Listener {} failed to start on {}: {}", name, workerId, reason);
                    running.put(name, RunningListener.failed(name, stored, concurrency, reason));
                    return Future.succeededFuture();
                });
    }

    private Future<Void> stop(RunningListener r) {
        return runner.stop(r.started()).eventually(() -> {
            running.remove(r.name(), r);
            return Future.succeededFuture();
        });
    }

    private static int concurrencyOf(Map<String, String> config) {
        try {
            return Math.max(1, Integer.parseInt(config.getOrDefault("concurrency", "1").trim()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * Runs {@code op} after the previous one, on the supervisor's own context: a step that follows a member's
     * leave must not run on that member's context, which is being undeployed (a verticle deployed from it
     * would become its child and fail to deploy).
     */
    private synchronized Future<Void> enqueue(Supplier<Future<Void>> op) {
        Future<Void> next = queue.transform(ignored -> {
            Promise<Void> done = Promise.promise();
            context.runOnContext(v -> {
                try {
                    op.get().onComplete(done);
                } catch (RuntimeException e) {
                    LOG.error("Listener supervision step failed", e);
                    done.complete();
                }
            });
            return done.future();
        });
        queue = next.otherwiseEmpty();
        return next;
    }
}
