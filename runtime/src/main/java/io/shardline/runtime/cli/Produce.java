package io.shardline.runtime.cli;

import io.shardline.producer.ShardProducer;
import io.shardline.producer.StreamCap;
import io.shardline.producer.routing.NoTopologyException;
import io.shardline.producer.routing.RoutingRedis;
import io.shardline.producer.routing.RoutingTopology;
import io.shardline.runtime.config.Version;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point behind {@code bin/produce}: writes records to a sharded stream for load tests and demos.
 * Keys are drawn (seeded) from a key space and hashed to shards as Kafka does; each record carries a
 * payload of the given size and its send time ({@code ts}, epoch ms). Prints progress every second. The shard count
 * and routing epoch come from the stream's topology ({@link ShardProducer}); {@code --shards} only creates one.
 *
 * <p>Exit codes: 0 done; 2 bad option (also: no topology and no {@code --shards}, or {@code --shards} disagreeing with
 * the topology); 1 Redis failed. Never a stack trace.
 */
@Command(name = "produce",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        description = "Writes records to the shards {<stream>:<i>} of a stream under its topology, keyed like Kafka's default "
                + "partitioner; writes a shard refuses during a change of the shard count are routed again.")
public final class Produce implements Callable<Integer> {

    @Option(names = "--redis", paramLabel = "URL", defaultValue = "redis://127.0.0.1:6379", description = "Redis URL (default: ${DEFAULT-VALUE}).")
    private String redisUrl;

    @Option(names = "--stream", required = true, paramLabel = "NAME", description = "The logical stream, e.g. orders.")
    private String stream;

    @Option(names = "--shards", paramLabel = "N",
            description = "Creates the stream with N shards when it has no topology yet (as 'bin/shardline streams create'); "
                    + "refused when its topology has another count. Without it the shard count and routing epoch come "
                    + "from the stream's topology, and a stream without one is refused.")
    private Integer shards;

    @Option(names = "--cluster", paramLabel = "NAME",
            description = "With --shards: the cluster (its cluster.name) whose stream list (GET /streams) gets a stream "
                    + "--shards creates (default: shardline).")
    private String cluster;

    @Option(names = "--count", paramLabel = "N", defaultValue = "10000", description = "Records to write (default: ${DEFAULT-VALUE}).")
    private long count;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "0", description = "Records per second; 0 = as fast as possible (default).")
    private long rate;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "1000",
            description = "Key space: keys key-0..key-(N-1), drawn at random; 0 = no key, round-robin (default: ${DEFAULT-VALUE}).")
    private int keys;

    @Option(names = "--payload-size", paramLabel = "BYTES", defaultValue = "100", description = "Payload bytes per record (default: ${DEFAULT-VALUE}).")
    private int payloadSize;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "100", description = "Records pipelined per round trip (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the key choice (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--maxlen", paramLabel = "N", defaultValue = "0",
            description = "Adds MAXLEN ~ N to every XADD: Redis keeps about N entries per shard. WARNING: Redis trims "
                    + "whether consumer groups read the entries or not, so this can drop unread records; listener "
                    + "retention (retention.max.length) never does (docs/operations.md). 0 = no cap (default).")
    private long maxLength;

    @Option(names = "--max-age-ms", paramLabel = "MS", defaultValue = "0",
            description = "Adds MINID ~ <now - MS> to every XADD: Redis drops entries older than MS. WARNING: this can "
                    + "drop unread records, as --maxlen. 0 = no cap (default).")
    private long maxAgeMs;

    /** The cluster a stream created with {@code --shards} is registered with when {@code --cluster} is not given. */
    static final String DEFAULT_CLUSTER = "shardline";

    private final PrintStream out;
    private final PrintStream err;

    /** On the process's streams. */
    public Produce() {
        this(System.out, System.err);
    }

    /** On the given streams (tests). */
    public Produce(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs {@code bin/produce}. */
    public static void main(String[] args) {
        System.exit(run(new Produce(), args));
    }

    /** Parses {@code args} and runs; returns the exit code. */
    public static int run(Produce command, String... args) {
        CommandLine cmd = new CommandLine(command);
        cmd.setParameterExceptionHandler((ex, a) -> {
            command.err.println(ex.getMessage() + " (see --help)");
            return 2;
        });
        return cmd.execute(args);
    }

    @Override
    public Integer call() {
        String problem = validate();
        if (problem != null) {
            err.println(problem + " (see --help)");
            return 2;
        }
        Vertx vertx = Vertx.vertx();
        Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(redisUrl).setMaxPoolSize(4));
        try {
            StreamCap cap = maxLength > 0 ? StreamCap.maxLength(maxLength)
                    : maxAgeMs > 0 ? StreamCap.maxAge(maxAgeMs, System::currentTimeMillis) : StreamCap.NONE;
            ShardProducer producer = new ShardProducer(RoutingRedis.of(redis), stream, shards == null ? null
                    : new ShardProducer.Create(shards, cluster == null ? DEFAULT_CLUSTER : cluster, "bin/produce"), cap);
            RoutingTopology topology;
            try {
                topology = producer.topology().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof NoTopologyException || e.getCause() instanceof IllegalArgumentException) {
                    err.println("error: " + e.getCause().getMessage());
                    return 2;
                }
                throw e;
            }
            if (!cap.isNone()) {
                out.printf("capping every shard with %s: Redis may drop records no group has read yet%n", cap);
            }
            out.printf("producing %d records to %s (%d shards, routing epoch %d) at %s, key space %d, payload %d B, seed %d%n",
                    count, stream, topology.shards(), topology.routingEpoch(), rate == 0 ? "max rate" : rate + "/s", keys,
                    payloadSize, seed);
            long started = System.nanoTime();
            long sent = produce(vertx, producer).toCompletionStage().toCompletableFuture().get(7, TimeUnit.DAYS);
            double seconds = (System.nanoTime() - started) / 1e9;
            out.printf("done: %d records in %.1f s (%.0f records/s)%s%n", sent, seconds, sent / Math.max(seconds, 1e-9),
                    producer.refusals() == 0 ? "" : "; writes refused " + producer.refusals()
                            + " time(s) by a shard at a newer routing epoch and routed again");
            return 0;
        } catch (ExecutionException e) {
            err.println("error: writing to " + redisUrl + " failed: " + e.getCause().getMessage());
            return 1;
        } catch (InterruptedException | TimeoutException e) {
            err.println("error: interrupted");
            return 1;
        } finally {
            redis.close();
            vertx.close();
        }
    }

    private String validate() {
        if (shards != null && shards < 1) {
            return "--shards must be >= 1, got " + shards;
        }
        if (cluster != null && shards == null) {
            return "--cluster names the cluster a stream created by --shards is listed in; give --shards N too, or "
                    + "leave --cluster out";
        }
        if (count < 0 || rate < 0 || keys < 0 || payloadSize < 0) {
            return "--count, --rate, --keys and --payload-size must be >= 0";
        }
        if (maxLength < 0 || maxAgeMs < 0) {
            return "--maxlen and --max-age-ms must be >= 0";
        }
        if (maxLength > 0 && maxAgeMs > 0) {
            return "--maxlen and --max-age-ms cannot be combined (XADD takes one cap): choose one";
        }
        if (batch < 1 || batch > 10_000) {
            return "--batch must be 1..10000, got " + batch;
        }
        if (stream.isBlank() || stream.contains("{") || stream.contains("}")) {
            return "--stream must be non-blank without braces, got '" + stream + "'";
        }
        return null;
    }

    private Future<Long> produce(Vertx vertx, ShardProducer producer) {
        Promise<Long> done = Promise.promise();
        Random random = new Random(seed);
        String payload = "x".repeat(payloadSize);
        long start = System.nanoTime();
        long[] sent = {0};
        long[] lastReport = {start};
        vertx.runOnContext(v -> next(vertx, producer, random, payload, start, sent, lastReport, done));
        return done.future();
    }

    private void next(Vertx vertx, ShardProducer producer, Random random, String payload, long start, long[] sent,
                      long[] lastReport, Promise<Long> done) {
        long now = System.nanoTime();
        if (now - lastReport[0] >= TimeUnit.SECONDS.toNanos(1)) {
            lastReport[0] = now;
            out.printf("sent %d / %d (%.0f records/s)%n", sent[0], count, sent[0] / ((now - start) / 1e9));
        }
        if (sent[0] >= count) {
            done.complete(sent[0]);
            return;
        }
        long allowed = rate == 0 ? count : Math.min(count, (long) ((now - start) / 1e9 * rate) + 1);
        int n = (int) Math.min(batch, allowed - sent[0]);
        if (n <= 0) {
            long waitMs = Math.max(1, (long) Math.ceil(1000.0 / rate));
            vertx.setTimer(waitMs, t -> next(vertx, producer, random, payload, start, sent, lastReport, done));
            return;
        }
        List<ShardProducer.Record> records = new ArrayList<>(n);
        long ts = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            String key = keys == 0 ? null : "key-" + random.nextInt(keys);
            records.add(new ShardProducer.Record(key, Map.of("ts", Long.toString(ts), "payload", payload)));
        }
        producer.sendAll(records).onComplete(ar -> {
            if (ar.failed()) {
                done.fail(ar.cause());
                return;
            }
            sent[0] += n;
            next(vertx, producer, random, payload, start, sent, lastReport, done);
        });
    }
}
