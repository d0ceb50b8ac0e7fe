package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One test per {@link RedisErrorKind}, on the reply texts Redis 7 and Shardline's scripts send. */
@RedisTest
class RedisErrorKindTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Vertx vertx;
    private RedisClient client;

    @BeforeEach
    void start(RedisServer redis) {
        vertx = Vertx.vertx();
        client = result(RedisClient.connect(vertx, RedisConfig.standalone(redis.uri()), new SplittableRandom(7)), WAIT);
    }

    @AfterEach
    void stop() {
        result(client.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    /** The kind of what Redis answers {@code command}, which must fail. */
    private RedisErrorKind kindOf(Request command) {
        return RedisErrorKind.classify(failure(client.send(command), WAIT));
    }

    /** The kind of a script's error reply, as Redis relays it. */
    private RedisErrorKind scriptError(String reply) {
        return kindOf(Request.cmd(Command.EVAL).arg("return redis.error_reply(ARGV[1])").arg(0).arg(reply));
    }

    @Test
    void fenced() {
        assertEquals(RedisErrorKind.FENCED, scriptError("FENCED {orders:4} owner=B epoch=2"));
    }

    @Test
    void noOwner() {
        assertEquals(RedisErrorKind.NO_OWNER, scriptError("NOOWNER {orders:4} has no owner"));
    }

    @Test
    void staleEpoch() {
        assertEquals(RedisErrorKind.STALE_EPOCH, scriptError("STALE_EPOCH {orders:4} owner=B epoch=7"));
    }

    @Test
    void staleLeaderEpoch() {
        assertEquals(RedisErrorKind.STALE_LEADER_EPOCH, scriptError("STALE_LEADER_EPOCH 5 12"));
    }

    @Test
    void revisionMismatch() {
        assertEquals(RedisErrorKind.REVISION_MISMATCH, scriptError("REVISION_MISMATCH 5 12"));
    }

    @Test
    void noGroupAlsoInsideAScriptsReply() {
        result(client.send(Request.cmd(Command.XADD).arg("no-group").arg("*").arg("f").arg("v")), WAIT);
        assertEquals(RedisErrorKind.NO_GROUP, kindOf(Request.cmd(Command.XREADGROUP).arg("GROUP").arg("g").arg("c")
                .arg("STREAMS").arg("no-group").arg(">")));
        assertEquals(RedisErrorKind.NO_GROUP, RedisErrorKind.classify(
                "ERR Error running script (call to f_1): @user_script:1: NOGROUP No such key 's' or consumer group 'g'"));
    }

    @Test
    void busyGroup() {
        result(client.send(Request.cmd(Command.XGROUP).arg("CREATE").arg("busy").arg("g").arg("0").arg("MKSTREAM")),
                WAIT);
        assertEquals(RedisErrorKind.BUSY_GROUP, kindOf(Request.cmd(Command.XGROUP).arg("CREATE").arg("busy").arg("g")
                .arg("0").arg("MKSTREAM")));
    }

    @Test
    void noScript() {
        assertEquals(RedisErrorKind.NO_SCRIPT, kindOf(Request.cmd(Command.EVALSHA)
                .arg("0123456789abcdef0123456789abcdef01234567").arg(0)));
    }

    @Test
    void noFunction() {
        assertEquals(RedisErrorKind.NO_FUNCTION, kindOf(Request.cmd(Command.FCALL).arg("shard_nothing").arg(0)));
    }

    @Test
    void wrongType() {
        result(client.send(Request.cmd(Command.SET).arg("a-string").arg("v")), WAIT);
        assertEquals(RedisErrorKind.WRONG_TYPE, kindOf(Request.cmd(Command.XLEN).arg("a-string")));
    }

    @Test
    void noPermIsARefusal() {
        RedisErrorKind kind = RedisErrorKind.classify(
                "NOPERM this user has no permissions to run the 'flushall' command");
        assertEquals(RedisErrorKind.NO_PERM, kind);
        assertTrue(kind.refusal());
    }

    @Test
    void wrongPassIsARefusal() {
        RedisErrorKind kind = RedisErrorKind.classify("WRONGPASS invalid username-password pair or user is disabled.");
        assertEquals(RedisErrorKind.WRONG_PASS, kind);
        assertTrue(kind.refusal());
    }

    @Test
    void noAuthIsARefusal() {
        RedisErrorKind kind = RedisErrorKind.classify("NOAUTH Authentication required.");
        assertEquals(RedisErrorKind.NO_AUTH, kind);
        assertTrue(kind.refusal());
    }

    @Test
    void tooManyClients() {
        assertEquals(RedisErrorKind.TOO_MANY_CLIENTS, RedisErrorKind.classify("ERR max number of clients reached"));
    }

    @Test
    void err() {
        result(client.send(Request.cmd(Command.SET).arg("not-a-number").arg("v")), WAIT);
        RedisErrorKind kind = kindOf(Request.cmd(Command.INCR).arg("not-a-number"));
        assertEquals(RedisErrorKind.ERR, kind);
        assertFalse(kind.refusal());
    }

    @Test
    void otherForWhatIsNoErrorReply() {
        assertEquals(RedisErrorKind.OTHER, RedisErrorKind.classify(
                new RedisTimeoutException("XREADGROUP", 500)));
        assertEquals(RedisErrorKind.OTHER, RedisErrorKind.classify(new IllegalStateException((String) null)));
        assertEquals(RedisErrorKind.OTHER, RedisErrorKind.classify((Throwable) null));
        assertEquals(RedisErrorKind.OTHER, RedisErrorKind.classify("FENCEDX not a code"));
    }
}
