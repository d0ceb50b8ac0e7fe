package io.shardline.runtime.shard;

import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * A shard's routing hash {@code {<stream>:<i>}:routing} as the member side reads it (docs/protocol.md section 8b,
 * "The read rule"): whether a group's reads are bounded by a cutover it has not passed (the transaction hot path then
 * hands the read to the script, which enforces the rule), and whether a waiting group's barrier is released. The
 * fields are written by the routing library (flip), the leader ({@code released:<group>}) and the shard library's read
 * ({@code waiting:<group>}). Stateless.
 */
final class CutoverRouting {

    private CutoverRouting() {
    }

    /**
     * Whether a group's read of new entries on a shard whose routing hash holds {@code routing} (HGETALL) is bounded by
     * a cutover it has not passed: a {@code cutover:<E>} field with {@code E} above {@code released:<group>}; or holding
     * the group's {@code waiting:<group>} field, which the script removes once the group reads on.
     */
    static boolean boundedByCutover(Response routing, String group) {
        if (routing == null || routing.size() == 0) {
            return false;
        }
        long released = 0;
        long highestCutover = 0;
        String releasedField = "released:" + group;
        List<String> kv = new ArrayList<>();
        if (routing.isMap()) {
            for (String k : routing.getKeys()) {
                kv.add(k);
                kv.add(routing.get(k).toString());
            }
        } else {
            routing.forEach(r -> kv.add(r.toString()));
        }
        for (int i = 0; i + 1 < kv.size(); i += 2) {
            String field = kv.get(i);
            if (field.equals(releasedField)) {
                released = parseEpoch(kv.get(i + 1));
            } else if (field.equals("waiting:" + group)) {
                return true;
            } else if (field.startsWith("cutover:")) {
                highestCutover = Math.max(highestCutover, parseEpoch(field.substring("cutover:".length())));
            }
        }
        return highestCutover > released;
    }

    private static long parseEpoch(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Whether the reply of {@code HMGET <routing> released:<group> cutover:<epoch>} says the group's barrier at the
     * cutover of {@code epoch} is released: {@code released:<group> >= epoch}, or the {@code cutover:<epoch>} field is
     * gone (the leader removes the fields of a finished change).
     */
    static boolean released(Response hmget, long epoch) {
        Response released = hmget.get(0);
        return hmget.get(1) == null || released != null && parseEpoch(released.toString()) >= epoch;
    }
}
