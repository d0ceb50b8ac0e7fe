package io.shardline.benchmarks.consumption;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.shardline.api.handler.ShardId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand-written loop users write with Lettuce: one thread and one connection per shard, each repeating
 * {@code XREADGROUP COUNT 100 BLOCK 100} on its shard and {@code XACK} of the whole batch after the sink saw it.
 */
final class LettuceLoopPeer implements Peer {

    private static final int BATCH = 100;
    private final RedisClient client;
    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    LettuceLoopPeer(String redisUri) {
        this.client = RedisClient.create(redisUri);
    }

    @Override
    public String name() {
        return "lettuce-loop";
    }

    @Override
    public void start(List<ShardId> shards, String group, Sink sink) {
        for (ShardId shard : shards) {
            StatefulRedisConnection<String, String> connection = client.connect();
            connections.add(connection);
            Thread t = new Thread(() -> loop(connection.sync(), shard, group, sink), "lettuce-loop-" + shard.index());
            t.setUncaughtExceptionHandler((thread, e) -> System.err.println(thread.getName() + " died: " + e));
            threads.add(t);
            t.start();
        }
    }

    @SuppressWarnings("unchecked")
    private void loop(RedisCommands<String, String> redis, ShardId shard, String group, Sink sink) {
        XReadArgs args = XReadArgs.Builder.count(BATCH).block(Duration.ofMillis(100));
        XReadArgs.StreamOffset<String> offset = XReadArgs.StreamOffset.lastConsumed(shard.key());
        while (!stopped) {
            List<StreamMessage<String, String>> batch = redis.xreadgroup(Consumer.from(group, "c"), args, offset);
            if (batch.isEmpty()) {
                continue;
            }
            String[] ids = new String[batch.size()];
            for (int i = 0; i < ids.length; i++) {
                StreamMessage<String, String> m = batch.get(i);
                sink.accept(shard, m.getBody().get("t"));
                ids[i] = m.getId();
            }
            redis.xack(shard.key(), group, ids);
        }
    }

    @Override
    public void close() {
        stopped = true;
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        connections.forEach(StatefulRedisConnection::close);
        client.shutdown();
    }
}
