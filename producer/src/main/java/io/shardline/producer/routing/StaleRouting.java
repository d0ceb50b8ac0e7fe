package io.shardline.producer.routing;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The refusal of an epoch-checked add ({@link ShardRouting#add}): the shard accepts writes under a newer routing
 * epoch than the producer's. The error Redis answers is {@code STALE_ROUTING <stream> shard=<i> epoch=<S>}; nothing
 * was written, and the producer reads the topology again and routes the record anew. Immutable.
 *
 * @param stream the logical stream
 * @param shard the shard index that refused
 * @param epoch the routing epoch the shard accepts writes under now
 */
public record StaleRouting(String stream, int shard, long epoch) {

    /** The error code Redis answers with. */
    public static final String CODE = "STALE_ROUTING";

    private static final Pattern ERROR = Pattern.compile("STALE_ROUTING (\\S+) shard=(\\d+) epoch=(\\d+)");

    /** The refusal in an error message, empty when {@code message} is not one. */
    public static Optional<StaleRouting> parse(String message) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher m = ERROR.matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new StaleRouting(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3))));
    }

    /** As Redis writes it. */
    @Override
    public String toString() {
        return CODE + " " + stream + " shard=" + shard + " epoch=" + epoch;
    }
}
