package io.shardline.runtime.redis;

import io.vertx.redis.client.Response;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads map-shaped Redis replies the same way under RESP2 (flat field/value arrays) and RESP3 (maps). */
public final class RedisReplies {

    private RedisReplies() {
    }

    /** The reply as an ordered map of field to value; empty for a {@code null} reply. */
    public static Map<String, Response> toMap(Response reply) {
        Map<String, Response> out = new LinkedHashMap<>();
        if (reply == null) {
            return out;
        }
        if (reply.isMap()) {
            for (String key : reply.getKeys()) {
                out.put(key, reply.get(key));
            }
            return out;
        }
        Iterator<Response> it = reply.iterator();
        while (it.hasNext()) {
            String key = it.next().toString();
            out.put(key, it.hasNext() ? it.next() : null);
        }
        return out;
    }

    /** The reply as a map of field to text value. */
    public static Map<String, String> toStringMap(Response reply) {
        Map<String, String> out = new LinkedHashMap<>();
        toMap(reply).forEach((k, v) -> out.put(k, v == null ? null : v.toString()));
        return out;
    }
}
