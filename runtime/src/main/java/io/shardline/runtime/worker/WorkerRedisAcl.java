package io.shardline.runtime.worker;

import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.redis.RedisAcl;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisPermissionCheck;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis ACL check of a worker: the commands of {@link RedisAcl} on the metadata keys of {@code cluster.name}
 * and on the keys of listeners (their streams, owner records and dead-letter streams): of every listener file when
 * the worker starts, and of each listener as it starts (one created over REST fails with the missing permissions
 * as its reason). Stateless.
 */
final class WorkerRedisAcl {

    private WorkerRedisAcl() {
    }

    /** The ACL the worker needs for {@code definitions}. */
    static RedisAcl of(WorkerConfig config, List<ListenerDefinition> definitions, boolean xackdel) {
        List<String> streams = new ArrayList<>();
        List<String> deadLetters = new ArrayList<>();
        for (ListenerDefinition d : definitions) {
            ListenerConfig listener = d.config();
            listener.streams().stream().map(StreamSpec::name).forEach(streams::add);
            deadLetters.add(listener.deadLetterStream());
        }
        return new RedisAcl(config.clusterName(), streams, deadLetters, xackdel);
    }

    /** Checks the permissions; fails with {@link io.shardline.runtime.redis.RedisPermissionException}. */
    static Future<Void> check(RedisClient redis, WorkerConfig config, List<ListenerDefinition> definitions) {
        Map<String, String> groups = new LinkedHashMap<>();
        definitions.forEach(d -> d.config().streams().forEach(s -> groups.putIfAbsent(s.name(), d.config().group())));
        return new RedisPermissionCheck(of(config, definitions, redis.supportsXackdel()), groups).run(redis);
    }
}
