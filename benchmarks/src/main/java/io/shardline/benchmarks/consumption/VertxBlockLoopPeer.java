package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * The latency baseline: a hand-written {@code XREADGROUP COUNT 100 BLOCK 100} + {@code XACK} loop per shard on the
 * same Vert.x Redis client Shardline uses, each shard on a dedicated connection (a blocking read holds its
 * connection), no fencing, no scheduling: the least a consumer on this client can do.
 */
final class VertxBlockLoopPeer implements Peer {

    private static final int BATCH = 100;
    private final BenchRedis b;
    private final List<RedisConnection> connections = new ArrayList<>();
    private volatile boolean stopped;
    private final List<Future<Void>> loops = new ArrayList<>();

    VertxBlockLoopPeer(BenchRedis b) {
        this.b = b;
    }

    @Override
    public String name() {
        return "vertx-block-loop";
    }

    @Override
    public void start(List<ShardId> shards, String group, Sink sink) {
        for (ShardId shard : shards) {
            RedisConnection c = BenchRedis.await(b.redis.connectDedicated());
            connections.add(c);
            io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
            b.vertx.runOnContext(v -> step(c, shard, group, sink, done));
            loops.add(done.future());
        }
    }

    private void step(RedisConnection c, ShardId shard, String group, Sink sink, io.vertx.core.Promise<Void> done) {
        if (stopped) {
            done.complete();
            return;
        }
        c.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg("c").arg("COUNT").arg(BATCH).arg("BLOCK")
                .arg(100).arg("STREAMS").arg(shard.key()).arg(">")).onComplete(ar -> {
                    if (ar.failed()) {
                        done.tryFail(ar.cause());
                        return;
                    }
                    Response r = ar.result();
                    if (r == null) {
                        step(c, shard, group, sink, done);
                        return;
                    }
                    Response entries = r.isMap() ? r.get(shard.key()) : r.get(0).get(1);
                    Request ack = Request.cmd(Command.XACK).arg(shard.key()).arg(group);
                    for (Response e : entries) {
                        Response fields = e.get(1);
                        String t = "0";
                        for (int i = 0; i + 1 < fields.size(); i += 2) {
                            if ("t".equals(fields.get(i).toString())) {
                                t = fields.get(i + 1).toString();
                            }
                        }
                        sink.accept(shard, t);
                        ack.arg(e.get(0).toString());
                    }
                    c.send(ack).onComplete(a -> {
                        if (a.failed()) {
                            done.tryFail(a.cause());
                        } else {
                            step(c, shard, group, sink, done);
                        }
                    });
                });
    }

    @Override
    public void close() {
        stopped = true;
        BenchRedis.await(Future.join(new ArrayList<>(loops)));
        connections.forEach(RedisConnection::close);
    }
}
