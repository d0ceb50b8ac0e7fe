package io.shardline.runtime.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RedisServerInfoTest {

    @Test
    void parsesInfoServer() {
        String info = "# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n"
                + "run_id:0123456789abcdef0123456789abcdef01234567\r\ntcp_port:6379\r\n";
        assertEquals(new RedisServerInfo(7, 0, 15, "0123456789abcdef0123456789abcdef01234567", "standalone"),
                RedisServerInfo.parse(info));
    }

    @Test
    void xackdelFrom82() {
        assertFalse(new RedisServerInfo(8, 1, 9, "r", "standalone").supportsXackdel());
        assertTrue(new RedisServerInfo(8, 2, 0, "r", "standalone").supportsXackdel());
        assertTrue(new RedisServerInfo(9, 0, 0, "r", "standalone").supportsXackdel());
        assertEquals("8.2.1", RedisServerInfo.parse("redis_version:8.2.1-rc1\nrun_id:r\n").version());
    }

    @Test
    void aClustersIdentityIsItsPrimariesTogether() {
        RedisServerInfo cluster = RedisServerInfo.ofPrimaries(java.util.List.of(
                new RedisServerInfo(8, 2, 0, "c", "cluster"), new RedisServerInfo(7, 4, 1, "a", "cluster"),
                new RedisServerInfo(8, 0, 0, "b", "cluster")));
        assertEquals("a,b,c", cluster.runId());
        assertEquals("7.4.1", cluster.version());
        assertEquals("cluster", cluster.mode());
        assertThatThrownBy(() -> RedisServerInfo.ofPrimaries(java.util.List.of())).hasMessageContaining("no primary");
    }

    @Test
    void missingFieldsAreAnError() {
        assertThatThrownBy(() -> RedisServerInfo.parse("redis_version:7.0.0\n"))
                .hasMessageContaining("run_id");
    }

    @Test
    void backoffDoublesUpToTheCapWithJitter() {
        Backoff backoff = new Backoff(100, 1_000, new SplittableRandom(7));
        for (int attempt = 0; attempt < 10; attempt++) {
            long cap = Math.min(1_000, 100L << attempt);
            long delay = backoff.delayMs(attempt);
            assertTrue(delay >= cap / 2 && delay <= cap, "attempt " + attempt + " delay " + delay);
        }
    }
}
