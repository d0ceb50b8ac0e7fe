package io.shardline.examples;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.control.ListenerLoader;
import io.shardline.runtime.listener.StandaloneListener;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.shard.VertxShardRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Runs an example plugin as a listener (from listener-file text) against a real Redis, for the plugins' integration tests. */
public final class PluginHarness implements AutoCloseable {

    public final Vertx vertx = Vertx.vertx();
    public final VertxShardRedis redis;
    public final MetricRegistry registry = new MetricRegistry();
    private final Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader());
    private final Path dir;

    public PluginHarness(String redisUri, Path dir) {
        this.redis = VertxShardRedis.create(vertx, redisUri, 4, 5_000);
        this.dir = dir;
    }

    /** Writes {@code <name>.properties} and starts it standalone under {@code epoch}. */
    public StandaloneListener start(String name, String listenerFile, long epoch) throws IOException {
        Files.writeString(dir.resolve(name + ".properties"), listenerFile);
        ListenerDefinition def = ListenerLoader.loadAll(dir, plugins, Placeholders.system()).throwIfInvalid().listeners().stream()
                .filter(l -> l.name().equals(name)).findFirst().orElseThrow();
        return await(StandaloneListener.start(vertx, redis, def, "w", epoch, registry));
    }

    public Response send(Request request) {
        return await(redis.send(request));
    }

    public String xadd(String key, String... fieldsAndValues) {
        Request req = Request.cmd(Command.XADD).arg(key).arg("*");
        for (String s : fieldsAndValues) {
            req.arg(s);
        }
        return send(req).toString();
    }

    public long counter(String name) {
        return registry.counter(name).getCount();
    }

    public static <T> T await(Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    public static void waitUntil(String what, long timeoutMs, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            try {
                Thread.sleep(10); // polling a condition with a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        plugins.close();
        redis.close();
        await(vertx.close());
    }
}
