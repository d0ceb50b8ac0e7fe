package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.runtime.plugin.AssignorPlugins;
import io.shardline.runtime.plugin.PluginException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The assignors the hosted coordinator runs when this worker leads, by the name a group's configuration gives:
 * a built-in inline, a plugin from {@link AssignorPlugins} under its own class loader on an assignor thread with
 * a time limit ({@link TimeLimitedAssignor}). A name this worker does not have is an error naming it and this
 * worker, which the coordinator reports on the group (it stays on its previous target). One instance per plugin
 * name, created on first use. Thread-safe; {@link #close} interrupts running plugin calls.
 */
public final class LeaderAssignors implements Function<String, Assignor>, AutoCloseable {

    private final AssignorPlugins plugins;
    private final String workerId;
    private final long timeoutMs;
    private final LongSupplier clockMs;
    private final ExecutorService executor;
    private final ConcurrentHashMap<String, Assignor> instances = new ConcurrentHashMap<>();

    /**
     * The assignors of {@code plugins}.
     *
     * @param timeoutMs {@code assignor.timeout.ms}
     * @param clockMs monotonic milliseconds
     */
    public LeaderAssignors(AssignorPlugins plugins, String workerId, long timeoutMs, LongSupplier clockMs) {
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.timeoutMs = timeoutMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        AtomicInteger threads = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "shardline-assignor-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.executor = Executors.newCachedThreadPool(factory);
    }

    /**
     * The assignor called {@code nameOrClass}.
     *
     * @throws IllegalArgumentException naming the assignor, this worker and what is installed, when it is unknown
     *     here or cannot be created
     */
    @Override
    public Assignor apply(String nameOrClass) {
        if (AssignorPlugins.isBuiltIn(nameOrClass)) {
            return plugins.resolve(nameOrClass);
        }
        return instances.computeIfAbsent(nameOrClass, name -> {
            try {
                return new TimeLimitedAssignor(plugins.resolve(name), executor, timeoutMs, clockMs);
            } catch (PluginException e) {
                throw new IllegalArgumentException("on the leader " + workerId + ": " + e.getMessage(), e);
            }
        });
    }

    /** Interrupts running plugin calls; no new ones start. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
