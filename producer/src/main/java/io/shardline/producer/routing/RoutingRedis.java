package io.shardline.producer.routing;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisCluster;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The Redis calls the routing library needs, so that a producer can use a plain Vert.x {@link Redis} client
 * ({@link #of(Redis)}) and the worker runtime its own connection layer: one command, commands in order with a reply
 * (or error) each, and a command on every primary (a function library is kept per node on a Redis Cluster).
 */
public interface RoutingRedis {

    /** The most commands {@link #of(Redis)} has waiting for replies on its connection (Vert.x allows 2,048). */
    int IN_FLIGHT = 1_000;

    /** Sends one command. */
    Future<Response> send(Request request);

    /** Sends {@code request} to every primary (to the server itself when not a cluster). */
    Future<Void> sendToAllPrimaries(Request request);

    /**
     * Sends {@code requests} so that Redis runs them in this order, and answers each one's reply or error (a failed
     * command does not fail the others). The default sends each after the previous one's reply.
     */
    default Future<List<AsyncResult<Response>>> sendInOrder(List<Request> requests) {
        List<AsyncResult<Response>> results = new ArrayList<>(requests.size());
        Future<Void> chain = Future.succeededFuture();
        for (Request request : requests) {
            chain = chain.compose(v -> send(request).transform(reply -> {
                results.add(reply);
                return Future.<Void>succeededFuture();
            }));
        }
        return chain.map(v -> results);
    }

    /**
     * Over a Vert.x client: {@link #sendInOrder} pipelines on one connection of it, {@link #IN_FLIGHT} at a time (Redis
     * runs one connection's commands in order; on a Redis Cluster, the commands of one slot go over one node
     * connection, in order).
     */
    static RoutingRedis of(Redis redis) {
        Objects.requireNonNull(redis, "redis");
        return new RoutingRedis() {
            @Override
            public Future<Response> send(Request request) {
                return redis.send(request);
            }

            @Override
            public Future<Void> sendToAllPrimaries(Request request) {
                RedisCluster cluster;
                try {
                    cluster = RedisCluster.create(redis);
                } catch (IllegalArgumentException notACluster) {
                    return redis.send(request).mapEmpty();
                }
                return cluster.onAllMasterNodes(request).mapEmpty();
            }

            @Override
            public Future<List<AsyncResult<Response>>> sendInOrder(List<Request> requests) {
                return redis.connect().compose(connection -> pipelined(connection, requests)
                        .eventually(connection::close));
            }
        };
    }

    /**
     * Sends {@code requests} on {@code connection} in chunks of at most {@link #IN_FLIGHT} (a connection holds a
     * bounded number of commands waiting for replies), each chunk after the previous one's replies: in order.
     */
    private static Future<List<AsyncResult<Response>>> pipelined(RedisConnection connection, List<Request> requests) {
        List<AsyncResult<Response>> results = new ArrayList<>(requests.size());
        return chunk(connection, requests, 0, results).map(v -> results);
    }

    private static Future<Void> chunk(RedisConnection connection, List<Request> requests, int from,
                                      List<AsyncResult<Response>> results) {
        if (from >= requests.size()) {
            return Future.succeededFuture();
        }
        int to = Math.min(requests.size(), from + IN_FLIGHT);
        List<Future<Response>> sent = new ArrayList<>(to - from);
        for (Request request : requests.subList(from, to)) {
            sent.add(connection.send(request));
        }
        return Future.join(sent).transform(done -> {
            results.addAll(sent);
            return chunk(connection, requests, to, results);
        });
    }
}
