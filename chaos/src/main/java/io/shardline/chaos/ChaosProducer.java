package io.shardline.chaos;

import io.shardline.producer.ShardProducer;
import io.shardline.producer.routing.RoutingTopology;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.producer.routing.StaleRouting;
import io.shardline.producer.routing.Topologies;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Writes sequence-numbered records at a steady rate, round-robin over a key space: record {@code n} has key
 * {@code k<n mod keys>} and goes to shard {@code (n mod keys) mod shards} of the stream's topology (the key's number
 * is its hash, so a key's shards in two layouts are congruent modulo their gcd, as with murmur2), and the key moves
 * shards when the count changes; with {@code keys} 0 every record is its own key {@code k<n>}. It writes by the
 * routing library's epoch-checked add ({@code FCALL routing_xadd}, docs/protocol.md, section 8b:
 * {@code XADD {stream:i} * seq <n> __key k<key>}) under the
 * topology's routing epoch; a shard that refuses ({@code STALE_ROUTING}) makes it read the topology again and write
 * the record anew, as {@code ShardProducer} does. Remembers which writes Redis acknowledged and which are
 * indeterminate (sent, no reply: Redis went down). While Redis is down, ticks that cannot connect write nothing.
 * Thread-safe.
 */
public final class ChaosProducer implements AutoCloseable {

    private final String host;
    private final int port;
    private final String stream;
    private final int shards;
    private final int keys;
    private final LongSupplier clock;
    private final List<Produced> produced = new CopyOnWriteArrayList<>();
    private final Set<Long> indeterminate = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-producer");
        t.setDaemon(true);
        return t;
    });
    private RespProbe probe;
    /** {shards, routing epoch} the records are routed with; null until read, and after a refusal. */
    private long[] routing;
    private long nextSeq = 1;

    ChaosProducer(String host, int port, String stream, int shards, int keys, LongSupplier clock) {
        this.host = host;
        this.port = port;
        this.stream = stream;
        this.shards = shards;
        this.keys = keys;
        this.clock = clock;
    }

    /** Starts writing {@code ratePerSecond} records per second. */
    public void start(int ratePerSecond) {
        long periodMicros = Math.max(1, 1_000_000L / ratePerSecond);
        timer.scheduleAtFixedRate(this::tick, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    /** One write (the timer calls it at the rate). */
    void tick() {
        try {
            if (probe == null) {
                probe = RespProbe.connect(host, port, 1_000);
            }
        } catch (IOException e) {
            probe = null; // Redis is down: nothing was sent
            return;
        }
        long seq = nextSeq++;
        long key = ChaosSettings.keyOf(seq, keys);
        try {
            for (int attempt = 1; ; attempt++) {
                if (routing == null) {
                    routing = topology();
                }
                int shard = (int) (key % routing[0]);
                try {
                    Object id = probe.call("FCALL", "routing_xadd", "2", ShardRouting.routingKey(stream, shard),
                            ShardRouting.shardKey(stream, shard), stream, Integer.toString(shard), Long.toString(routing[1]),
                            "*", "seq", Long.toString(seq), "__key", "k" + key);
                    produced.add(new Produced(shard, seq, EntryId.parse((String) id), clock.getAsLong()));
                    return;
                } catch (RespProbe.RedisErrorReply refused) {
                    if (attempt >= ShardProducer.MAX_ATTEMPTS) {
                        notWritten(seq, "refused " + attempt + " times, the last time: " + refused.getMessage());
                        return;
                    }
                    if (String.valueOf(refused.getMessage()).contains("Function not found")) {
                        probe.call("FUNCTION", "LOAD", "REPLACE", ShardRouting.LIBRARY);
                    } else if (StaleRouting.parse(refused.getMessage()).isPresent()) {
                        routing = null;
                    } else {
                        notWritten(seq, refused.getMessage());
                        return;
                    }
                }
            }
        } catch (IOException e) {
            indeterminate.add(seq);
            closeProbe();
        }
    }

    /** A record Redis refused (nothing written): not produced, not indeterminate; said on stderr. */
    private static void notWritten(long seq, String why) {
        System.err.println("chaos producer: record " + seq + " was not written: " + why);
    }

    /** {shards, routing epoch} of the stream's topology, created with {@link #shards} when it has none. */
    private long[] topology() throws IOException {
        Object created = probe.call("EVAL", Topologies.CREATE_SCRIPT, "1", RoutingTopology.key(stream), stream,
                Integer.toString(shards), "chaos producer");
        List<?> fields = (List<?>) ((List<?>) created).get(1);
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            hash.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
        }
        RoutingTopology t = RoutingTopology.fromHash(stream, hash);
        return new long[] {t.shards(), t.routingEpoch()};
    }

    private void closeProbe() {
        try {
            if (probe != null) {
                probe.close();
            }
        } catch (IOException e) {
            // the connection is gone already
        }
        probe = null;
    }

    /** Stops writing and waits for the last write to finish. */
    @Override
    public void close() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        closeProbe();
    }

    /** The acknowledged writes so far, in write order. */
    public List<Produced> produced() {
        return new ArrayList<>(produced);
    }

    /** The sequence numbers whose write got no reply. */
    public Set<Long> indeterminate() {
        return Set.copyOf(indeterminate);
    }
}
