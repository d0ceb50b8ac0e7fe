package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.config.Password;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The start-time ACL check against a real redis-server with ACL users made from {@link RedisAcl#rules()}. */
@RedisTest
class RedisPermissionCheckTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final RedisAcl ACL = new RedisAcl("prod", List.of("orders"), List.of("orders.dlq"), false);

    private Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void theMinimalAclPassesAndNothingIsLoggedAsDenied(RedisServer redis) throws Exception {
        setUser(redis, "full", ACL.rules());
        RedisClient client = connect(redis, "full");
        try {
            result(new RedisPermissionCheck(ACL, Map.of("orders", "billing")).run(client), WAIT);
        } finally {
            result(client.close(), WAIT);
        }
        try (RespProbe probe = redis.probe()) {
            assertThat(probe.call("ACL", "LOG").toString()).doesNotContain("full");
            // Queued, never run: the check wrote nothing.
            assertThat(probe.call("EXISTS", "orders.dlq", "{orders:0}")).isEqualTo(0L);
        }
    }

    @Test
    void aMissingCommandAndAMissingKeyAreNamed(RedisServer redis) throws Exception {
        // The ACL of another cluster (the orders.dlq key is missing too) and without CLIENT UNBLOCK.
        List<String> rules = new ArrayList<>(new RedisAcl("prod", List.of("orders"), List.of(), false).rules());
        rules.add("-client|unblock");
        setUser(redis, "partial", rules);
        RedisClient client = connect(redis, "partial");
        try {
            Throwable e = failure(new RedisPermissionCheck(ACL, Map.of("orders", "billing")).run(client), WAIT);
            assertThat(e).isInstanceOf(RedisPermissionException.class);
            assertThat(((RedisPermissionException) e).denials()).extracting(RedisPermissionCheck.Denial::describe)
                    .containsExactly("CLIENT|UNBLOCK", "EVAL on key 'orders.dlq'", "EVALSHA on key 'orders.dlq'",
                            "XADD on key 'orders.dlq'", "XDEL on key 'orders.dlq'", "XLEN on key 'orders.dlq'",
                            "XREVRANGE on key 'orders.dlq'");
            assertThat(e.getMessage()).startsWith("Redis user 'partial' (redis.user) lacks permissions the worker "
                    + "needs: CLIENT|UNBLOCK, EVAL on key 'orders.dlq', EVALSHA on key 'orders.dlq', XADD on key "
                    + "'orders.dlq', XDEL on key 'orders.dlq', XLEN on key 'orders.dlq', XREVRANGE on key 'orders.dlq' "
                    + "(Redis answered: NOPERM")
                    .endsWith("Grant the ACL that bin/shardline redis-acl --cluster prod --stream orders "
                            + "--dead-letter orders.dlq prints, naming every stream and dead-letter key of the workers' "
                            + "listeners: its key patterns replace the user's (docs/security.md, \"Redis\").");
        } finally {
            result(client.close(), WAIT);
        }
    }

    @Test
    void aDeniedInfoFailsTheConnectAtOnceNamingTheUser(RedisServer redis) throws Exception {
        List<String> rules = new ArrayList<>(ACL.rules());
        rules.add("-info");
        setUser(redis, "noinfo", rules);
        Throwable e = failure(RedisClient.connect(vertx, config(redis, "noinfo"), new SplittableRandom(1)), WAIT);
        assertThat(e).hasMessageStartingWith("Redis at " + redis.uri() + " refused INFO server for user 'noinfo' "
                + "(redis.user): NOPERM").hasMessageEndingWith("Grant the ACL that bin/shardline redis-acl prints "
                + "(docs/security.md, \"Redis\")");
    }

    @Test
    void aWrongPasswordFailsTheConnectAtOnceWithRedisAnswer(RedisServer redis) throws Exception {
        setUser(redis, "other", ACL.rules());
        RedisConfig d = config(redis, "other");
        RedisConfig wrong = new RedisConfig(d.url(), d.clusterUrls(), "other", new Password("not-the-password"), false,
                null, null, null, true, d.protocol(), d.commandTimeoutMs(), d.poolSize(), d.poolWaiting(),
                d.reconnectInitialMs(), d.reconnectMaxMs());
        Throwable e = failure(RedisClient.connect(vertx, wrong, new SplittableRandom(2)), WAIT);
        assertThat(e.getMessage()).contains("refused INFO server for user 'other' (redis.user): WRONGPASS")
                .endsWith("Check redis.user and redis.password").doesNotContain("not-the-password");
    }

    private RedisClient connect(RedisServer redis, String user) {
        return result(RedisClient.connect(vertx, config(redis, user), new SplittableRandom(7)), WAIT);
    }

    private static RedisConfig config(RedisServer redis, String user) {
        RedisConfig d = RedisConfig.standalone(redis.uri());
        return new RedisConfig(d.url(), d.clusterUrls(), user, new Password("pw-" + user), false, null, null, null,
                true, d.protocol(), d.commandTimeoutMs(), d.poolSize(), d.poolWaiting(), d.reconnectInitialMs(),
                d.reconnectMaxMs());
    }

    static void setUser(RedisServer redis, String user, List<String> rules) throws Exception {
        List<String> args = new ArrayList<>(List.of("ACL", "SETUSER", user, "reset", ">pw-" + user));
        args.addAll(rules);
        try (RespProbe probe = redis.probe()) {
            assertThat(probe.call(args.toArray(String[]::new))).isEqualTo("OK");
        }
    }
}
