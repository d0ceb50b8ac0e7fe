package io.shardline.runtime.reshard;

import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The leader's hint that it released barriers of a stream (docs/protocol.md section 8b, "The barrier"): published on
 * the cluster's event bus ({@code {"stream": s, "groups": [...]}}, no answer) right after the release scripts
 * answered; every worker hands it to its members of those groups that consume the stream, whose shards waiting at a
 * cutover then poll their routing hash at once instead of at their next poll. Only a hint: the routing hash decides
 * (Redis bounds every read by it), and a lost hint costs one poll interval. Thread-safe.
 */
public final class ReleaseHints {

    private final Vertx vertx;
    private final String address;

    /** Hints of the cluster {@code clusterName}. */
    public ReleaseHints(Vertx vertx, String clusterName) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.address = address(clusterName);
    }

    /** The event-bus address every worker listens on. */
    static String address(String clusterName) {
        return "shardline." + clusterName + ".reshard.released";
    }

    /** Tells every worker that barriers of {@code stream} were released for {@code groups}. */
    void publish(String stream, Set<String> groups) {
        vertx.eventBus().publish(address, new JsonObject().put("stream", stream).put("groups",
                new JsonArray(List.copyOf(groups))));
    }

    /**
     * Hands every hint to the members of {@code listeners} (this worker's running listeners) whose group it names
     * and that consume its stream ({@link MemberShards#barrierReleased}).
     */
    public MessageConsumer<JsonObject> listen(Supplier<List<Listener>> listeners) {
        return vertx.eventBus().consumer(address, message -> {
            String stream = message.body().getString("stream");
            JsonArray groups = message.body().getJsonArray("groups", new JsonArray());
            for (Listener l : listeners.get()) {
                if (groups.contains(l.definition().config().group()) && l.definition().config().streams().stream()
                        .anyMatch(s -> s.name().equals(stream))) {
                    l.members().forEach(m -> m.barrierReleased(stream));
                }
            }
        });
    }
}
