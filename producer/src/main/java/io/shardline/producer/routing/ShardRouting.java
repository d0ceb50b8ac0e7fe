package io.shardline.producer.routing;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The routing library: typed calls of the {@code shardline_routing} Redis FUNCTION library
 * ({@code shardline_routing.lua} beside this class; docs/protocol.md, section 8b). Each call is one atomic step
 * in the slot of shard {@code {<stream>:<i>}}, on the shard's routing hash {@link #routingKey}:
 * <ul>
 *   <li>{@link #flip}: moves the shard to a routing epoch and records where its old-layout entries end;</li>
 *   <li>{@link #add}: the epoch-checked {@code XADD}: refused ({@link AddResult.Refused}) when the shard is at a
 *       newer epoch than the producer's, flips the shard first when it is at an older one;</li>
 *   <li>{@link #move}: the same for moving an entry of another stream (a dead letter) to the shard, on one Redis.</li>
 * </ul>
 * A call that finds the library missing (a new or restarted Redis) loads it on every primary and is sent again
 * once. Thread-safe.
 */
public final class ShardRouting {

    /** The library's name in {@code FUNCTION LIST}. */
    public static final String LIBRARY_NAME = "shardline_routing";

    /** The library's source text. */
    public static final String LIBRARY = loadSource();

    /** The cutover of an epoch a shard never had entries before: {@code 0-0}. */
    public static final String NO_ENTRY = "0-0";

    private final RoutingRedis redis;

    /** Routing over {@code redis}. */
    public ShardRouting(RoutingRedis redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The Redis calls this routing uses. */
    public RoutingRedis redis() {
        return redis;
    }

    /** The shard stream key of shard {@code shard}: {@code {orders:3}}. */
    public static String shardKey(String stream, int shard) {
        return "{" + stream + ":" + shard + "}";
    }

    /** The routing hash of shard {@code shard}, in its slot: {@code {orders:3}:routing}. */
    public static String routingKey(String stream, int shard) {
        return shardKey(stream, shard) + ":routing";
    }

    /** Loads (or replaces) the library on every primary ({@code FUNCTION LOAD REPLACE}). */
    public Future<Void> loadLibrary() {
        return redis.sendToAllPrimaries(Request.cmd(Command.FUNCTION).arg("LOAD").arg("REPLACE").arg(LIBRARY));
    }

    /**
     * Flips shard {@code shard} of {@code stream} to routing epoch {@code epoch}: when the shard's epoch (absent = 1)
     * is below, records {@code cutover:<epoch>} = the id of the shard stream's last entry ({@value #NO_ENTRY} when it
     * has none) and sets the epoch; otherwise changes nothing.
     *
     * @return the shard's cutover of {@code epoch} ({@value #NO_ENTRY} when none is recorded)
     */
    public Future<String> flip(String stream, int shard, long epoch) {
        requireEpoch(epoch);
        return withLibrary(() -> redis.send(call("routing_flip", stream, shard).arg(epoch))).map(Response::toString);
    }

    /**
     * The epoch-checked {@code XADD} of one entry to shard {@code shard}, routed under {@code epoch}.
     *
     * @param xaddArguments {@code XADD}'s arguments after the key: an optional cap, the id ({@code *}), the fields
     * @return the entry id, or the refusal (nothing written)
     */
    public Future<AddResult> add(String stream, int shard, long epoch, List<String> xaddArguments) {
        Request request = addRequest(stream, shard, epoch, xaddArguments);
        return withLibrary(() -> redis.send(request)).transform(ShardRouting::result);
    }

    /**
     * The epoch-checked move of entry {@code entryId} of stream key {@code fromKey} (a dead letter) to shard
     * {@code shard}, routed under {@code epoch}: in one step, unless the entry is gone, the add of {@code fields}
     * ({@code XADD *}) and the removal of the entry ({@code XDEL}). On one Redis only: on a Redis Cluster the two keys
     * lie in different slots (add, then remove the entry, instead).
     *
     * @return empty when the entry was gone (nothing done), else the new entry id or the refusal (nothing done)
     */
    public Future<Optional<AddResult>> move(String stream, int shard, long epoch, String fromKey, String entryId,
                                            Map<String, String> fields) {
        requireEpoch(epoch);
        Request request = Request.cmd(Command.FCALL).arg("routing_move").arg(3).arg(routingKey(stream, shard))
                .arg(shardKey(stream, shard)).arg(fromKey).arg(stream).arg(shard).arg(epoch).arg(entryId);
        fields.forEach((k, v) -> request.arg(k).arg(v));
        return withLibrary(() -> redis.send(request)).transform(reply -> reply.succeeded() && reply.result() == null
                ? Future.succeededFuture(Optional.empty()) : result(reply).map(Optional::of));
    }

    /**
     * Epoch-checked adds run by Redis in the given order ({@link RoutingRedis#sendInOrder}), each with its own
     * outcome: a refused one does not stop the others. Adds that found the library missing are sent again, in their
     * order, after loading it.
     *
     * @return per request, in order: {@link AddResult}, or a failure other than a refusal
     */
    public Future<List<AsyncResult<AddResult>>> addInOrder(List<Request> addRequests) {
        return redis.sendInOrder(addRequests).compose(replies -> {
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < replies.size(); i++) {
                if (replies.get(i).failed() && noLibrary(replies.get(i).cause())) {
                    missing.add(i);
                }
            }
            if (missing.isEmpty()) {
                return Future.succeededFuture(results(replies));
            }
            List<Request> again = missing.stream().map(addRequests::get).toList();
            return loadLibrary().otherwiseEmpty().compose(v -> redis.sendInOrder(again)).map(retried -> {
                List<AsyncResult<Response>> merged = new ArrayList<>(replies);
                for (int k = 0; k < missing.size(); k++) {
                    merged.set(missing.get(k), retried.get(k));
                }
                return results(merged);
            });
        });
    }

    /** The request of {@link #add}, for {@link #addInOrder}. */
    public Request addRequest(String stream, int shard, long epoch, List<String> xaddArguments) {
        requireEpoch(epoch);
        Request request = call("routing_xadd", stream, shard).arg(stream).arg(shard).arg(epoch);
        xaddArguments.forEach(request::arg);
        return request;
    }

    private static List<AsyncResult<AddResult>> results(List<AsyncResult<Response>> replies) {
        List<AsyncResult<AddResult>> out = new ArrayList<>(replies.size());
        replies.forEach(r -> out.add(result(r)));
        return out;
    }

    private static Future<AddResult> result(AsyncResult<Response> reply) {
        if (reply.succeeded()) {
            return Future.succeededFuture(new AddResult.Written(reply.result().toString()));
        }
        return StaleRouting.parse(reply.cause().getMessage())
                .<Future<AddResult>>map(stale -> Future.succeededFuture(new AddResult.Refused(stale)))
                .orElseGet(() -> Future.failedFuture(reply.cause()));
    }

    private static Request call(String function, String stream, int shard) {
        return Request.cmd(Command.FCALL).arg(function).arg(2).arg(routingKey(stream, shard)).arg(shardKey(stream, shard));
    }

    private <T> Future<T> withLibrary(Supplier<Future<T>> call) {
        return call.get().recover(e -> noLibrary(e)
                ? loadLibrary().otherwiseEmpty().compose(v -> call.get())
                : Future.failedFuture(e));
    }

    private static boolean noLibrary(Throwable e) {
        return String.valueOf(e.getMessage()).contains("Function not found");
    }

    private static void requireEpoch(long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("a routing epoch must be >= 1, got " + epoch);
        }
    }

    private static String loadSource() {
        try (InputStream in = ShardRouting.class.getResourceAsStream("shardline_routing.lua")) {
            if (in == null) {
                throw new IllegalStateException("shardline_routing.lua is missing from the producer jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
