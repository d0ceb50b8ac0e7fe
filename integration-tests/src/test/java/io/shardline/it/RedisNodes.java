package io.shardline.it;

import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;

/**
 * Opens a probe connection to the Redis node that serves a key: the one server, or the primary of the key's slot
 * on a Redis Cluster (whose nodes answer {@code MOVED} for keys of other nodes).
 */
@FunctionalInterface
interface RedisNodes {

    /** A new probe connection to the node serving {@code key}; the caller closes it. */
    RespProbe probeFor(String key) throws IOException;

    /** Every key on the one server. */
    static RedisNodes of(RedisServer server) {
        return key -> server.probe();
    }

    /** Every key on its node of the cluster, by the cluster's current slot map. */
    static RedisNodes of(RedisCluster cluster) {
        return key -> cluster.ownerOf(key).probe();
    }
}
