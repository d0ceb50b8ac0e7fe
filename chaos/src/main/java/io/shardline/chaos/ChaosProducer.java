package io.shardline.chaos;

import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Writes sequence-numbered records at a steady rate, round-robin over the shards ({@code XADD {stream:i} *
 * seq <n> __key k<n>}), and remembers which writes Redis acknowledged and which are indeterminate (sent, no
 * reply: Redis went down). While Redis is down, ticks that cannot connect write nothing. Thread-safe.
 */
public final class ChaosProducer implements AutoCloseable {

    private final String host;
    private final int port;
    private final String stream;
    private final int shards;
    private final LongSupplier clock;
    private final List<Produced> produced = new CopyOnWriteArrayList<>();
    private final Set<Long> indeterminate = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-producer");
        t.setDaemon(true);
        return t;
    });
    private RespProbe probe;
    private long nextSeq = 1;

    ChaosProducer(String host, int port, String stream, int shards, LongSupplier clock) {
        this.host = host;
        this.port = port;
        this.stream = stream;
        this.shards = shards;
        this.clock = clock;
    }

    /** Starts writing {@code ratePerSecond} records per second. */
    public void start(int ratePerSecond) {
        long periodMicros = Math.max(1, 1_000_000L / ratePerSecond);
        timer.scheduleAtFixedRate(this::tick, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    private void tick() {
        try {
            if (probe == null) {
                probe = RespProbe.connect(host, port, 1_000);
            }
        } catch (IOException e) {
            probe = null; // Redis is down: nothing was sent
            return;
        }
        long seq = nextSeq++;
        int shard = (int) (seq % shards);
        try {
            Object id = probe.call("XADD", "{" + stream + ":" + shard + "}", "*", "seq", Long.toString(seq),
                    "__key", "k" + seq);
            produced.add(new Produced(shard, seq, EntryId.parse((String) id), clock.getAsLong()));
        } catch (IOException e) {
            indeterminate.add(seq);
            closeProbe();
        }
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
