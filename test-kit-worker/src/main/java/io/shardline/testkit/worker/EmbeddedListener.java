package io.shardline.testkit.worker;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.Handler;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.StandaloneListener;
import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.shard.VertxShardRedis;
import io.shardline.producer.ShardProducer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One handler plugin running as a listener inside the test's JVM against a real Redis: the handler is
 * found on the test class path exactly as a worker finds it in {@code plugin.path} (by alias or class
 * name, listed in {@code META-INF/services/io.shardline.api.handler.Handler}), its listener settings are
 * validated as a listener file would be, and it owns every shard of its streams (no coordinator: see
 * {@link StandaloneListener}). Produce records with {@link #produce}, then wait with
 * {@link #awaitHandled} or {@link #awaitDeadLettered}; inspect side effects in Redis with {@link #send}.
 *
 * <p>Build one with {@link #builder(String)}; close it (try-with-resources) to release its shards, stop
 * the handler and free its threads. Records left in Redis stay there: with one Redis per test class
 * ({@code @RedisTest}), give each test its own stream names. Thread-safe.
 */
public final class EmbeddedListener implements AutoCloseable {

    /** How long {@link Builder#start()} and single Redis calls may take. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedRuntime runtime;
    private final StandaloneListener listener;
    private final ListenerConfig config;
    private final Map<String, ShardProducer> producers;

    EmbeddedListener(EmbeddedRuntime runtime, StandaloneListener listener) {
        this.runtime = runtime;
        this.listener = listener;
        this.config = listener.listener().definition().config();
        Map<String, ShardProducer> byStream = new LinkedHashMap<>();
        for (StreamSpec stream : config.streams()) {
            // Creates the stream's topology with the listener's count unless it exists (then that count must agree).
            byStream.put(stream.name(), new ShardProducer(runtime.producerRedis(), stream.name(), stream.shardCount()));
        }
        this.producers = Map.copyOf(byStream);
    }

    /** A builder for a listener on the Redis at {@code redisUri} (e.g. {@code RedisServer.uri()}). */
    public static Builder builder(String redisUri) {
        return new Builder(redisUri);
    }

    /** The listener's name (default {@code test-listener}). */
    public String name() {
        return config.name();
    }

    /** The listener's validated settings (group, streams, dead-letter stream...). */
    public ListenerConfig config() {
        return config;
    }

    /**
     * Appends one record to {@code stream}, to the shard its key hashes to under the stream's topology (as
     * {@code bin/produce} and the producer library do); returns the entry id.
     *
     * @param key the record key (stored in the field {@code __key}); null spreads records round-robin
     * @param fieldsAndValues field, value, field, value...
     */
    public String produce(String stream, String key, String... fieldsAndValues) {
        if (fieldsAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("fieldsAndValues must be field/value pairs, got " + fieldsAndValues.length + " strings");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            fields.put(fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return produce(stream, key, fields);
    }

    /** Appends one record with {@code fields} to {@code stream}; see {@link #produce(String, String, String...)}. */
    public String produce(String stream, String key, Map<String, String> fields) {
        ShardProducer producer = producers.get(stream);
        if (producer == null) {
            throw new IllegalArgumentException("stream '" + stream + "' is not one of this listener's streams "
                    + producers.keySet());
        }
        return EmbeddedRuntime.await(producer.send(key, fields), "XADD to stream " + stream);
    }

    /** Records the handler finished successfully (and that were acknowledged). */
    public long handled() {
        return runtime.metrics().meter(metric("records.handled")).getCount();
    }

    /** Records that failed every attempt (or threw {@code NonRetriableException}) and went to the dead-letter stream. */
    public long deadLettered() {
        return runtime.metrics().meter(metric("records.dead-lettered")).getCount();
    }

    /** Waits until at least {@code records} records were handled; fails with the counts after {@code timeout}. */
    public void awaitHandled(long records, Duration timeout) {
        Await.until(records + " record(s) handled by listener '" + name() + "'", timeout,
                () -> handled() >= records, this::state);
    }

    /** Waits until at least {@code records} records were dead-lettered; fails with the counts after {@code timeout}. */
    public void awaitDeadLettered(long records, Duration timeout) {
        Await.until(records + " record(s) dead-lettered by listener '" + name() + "'", timeout,
                () -> deadLettered() >= records, this::state);
    }

    /**
     * The entries of the dead-letter stream, oldest first: each the record's own fields plus the
     * {@code __dlq.*} fields (source shard and id, attempts, error).
     */
    public List<Map<String, String>> deadLetters() {
        Response range = send(Request.cmd(Command.XRANGE).arg(config.deadLetterStream()).arg("-").arg("+"));
        List<Map<String, String>> letters = new ArrayList<>();
        for (Response entry : range) {
            Response kv = entry.get(1);
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 0; i + 1 < kv.size(); i += 2) {
                fields.put(kv.get(i).toString(), kv.get(i + 1).toString());
            }
            letters.add(fields);
        }
        return letters;
    }

    /** Stops reading every shard (ownership stays); records produced meanwhile wait for {@link #resume()}. */
    public void pause() {
        EmbeddedRuntime.await(listener.listener().pause(), "pausing listener " + name());
    }

    /** Resumes reading after {@link #pause()}. */
    public void resume() {
        EmbeddedRuntime.await(listener.listener().resume(), "resuming listener " + name());
    }

    /** Sends any Redis command (to check a handler's side effects); waits for the reply. */
    public Response send(Request request) {
        return EmbeddedRuntime.await(runtime.redis().send(request), "Redis " + request.command());
    }

    /**
     * The listener's metrics: the runtime's {@code shardline.listener.<name>.*} and the handler's own
     * ({@code shardline.listener.<name>.handler.*}).
     */
    public MetricRegistry metrics() {
        return runtime.metrics();
    }

    /** The handler's own counter {@code name} (from {@code HandlerMetrics.increment}). */
    public long handlerCounter(String name) {
        return runtime.metrics().counter(metric("handler." + name)).getCount();
    }

    /** Releases every shard, stops the handler instances and frees Redis connections and threads. */
    @Override
    public void close() {
        try {
            EmbeddedRuntime.await(listener.close(), "closing listener " + name());
        } finally {
            runtime.close();
        }
    }

    private String metric(String suffix) {
        return "shardline.listener." + name() + "." + suffix;
    }

    private String state() {
        return handled() + " handled, " + deadLettered() + " dead-lettered (dead-letter stream '"
                + config.deadLetterStream() + "')";
    }

    /** Settings of an {@link EmbeddedListener}, as the keys of a listener file. Not thread-safe. */
    public static final class Builder {

        private final String redisUri;
        private final Map<String, String> settings = new LinkedHashMap<>();
        private String name = "test-listener";

        private Builder(String redisUri) {
            this.redisUri = redisUri;
            // Test-friendly defaults; each can be overridden with set(...).
            settings.put(ListenerConfig.START_FROM_CONFIG, "earliest");
            settings.put(ListenerConfig.RETRY_BACKOFF_CONFIG, "10");
            settings.put(ListenerConfig.RETRY_BACKOFF_MAX_CONFIG, "100");
        }

        /** The listener name (the file name of a listener file); also the default group and metric prefix. */
        public Builder name(String listenerName) {
            this.name = listenerName;
            return this;
        }

        /** The handler plugin by alias or class name ({@code handler = ...}). */
        public Builder handler(String aliasOrClassName) {
            return set(ListenerConfig.HANDLER_CONFIG, aliasOrClassName);
        }

        /** The handler plugin by class; it must be listed in {@code META-INF/services/io.shardline.api.handler.Handler}. */
        public Builder handler(Class<? extends Handler> handlerClass) {
            return handler(handlerClass.getName());
        }

        /** The streams and shard counts ({@code streams = orders:4,payments:2}). */
        public Builder streams(String streams) {
            return set(ListenerConfig.STREAMS_CONFIG, streams);
        }

        /** A handler setting, without the {@code handler.config.} prefix. */
        public Builder handlerConfig(String key, String value) {
            return set(ListenerConfig.HANDLER_PREFIX + key, value);
        }

        /** Any listener key ({@code max.attempts}, {@code batch.size}, {@code concurrency}...), as in a listener file. */
        public Builder set(String key, String value) {
            if (key.isBlank() || value == null || value.contains("\n") || value.contains("\r")) {
                throw new IllegalArgumentException("setting '" + key + "' needs a one-line value, got " + value);
            }
            settings.put(key, value);
            return this;
        }

        /**
         * Validates the settings (a {@code ConfigException} lists every bad key, as a worker would),
         * connects to Redis, creates the shard streams and groups, and starts the handler on every shard.
         */
        public EmbeddedListener start() {
            return EmbeddedRuntime.start(redisUri, name, Map.copyOf(settings), contextLoader());
        }

        private static ClassLoader contextLoader() {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return loader != null ? loader : Plugins.class.getClassLoader();
        }
    }
}
