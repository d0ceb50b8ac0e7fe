package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The members' commands: at most the limit in flight, the rest sent in order as earlier ones return (a failure
 * returns its place too), each caller getting its own reply. The Redis underneath is a recording stand-in: what is
 * tested is the bound, not Redis.
 */
class BoundedShardRedisTest {

    /** Records each command sent and holds its reply until the test completes it. */
    private static final class Recording implements ShardRedis {
        final List<Request> sent = new ArrayList<>();
        final List<Promise<Response>> replies = new ArrayList<>();

        @Override
        public Future<Response> send(Request request) {
            Promise<Response> reply = Promise.promise();
            sent.add(request);
            replies.add(reply);
            return reply.future();
        }

        @Override
        public Future<RedisConnection> connectDedicated() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long commandTimeoutMs() {
            return 2_000;
        }

        @Override
        public ExclusiveConnections exclusiveConnections() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean supportsXackdel() {
            return false;
        }
    }

    @Test
    void atMostTheLimitIsInFlightAndTheRestFollowInOrder() {
        Recording redis = new Recording();
        BoundedShardRedis bounded = new BoundedShardRedis(redis, 2);
        List<Future<Response>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(bounded.send(Request.cmd(Command.PING).arg(i)));
        }
        assertThat(redis.sent).hasSize(2);
        assertThat(bounded.inFlight()).isEqualTo(2);
        assertThat(bounded.waiting()).isEqualTo(3);

        redis.replies.get(1).fail("boom");
        assertThat(results.get(1).failed()).isTrue();
        assertThat(redis.sent).as("a failure returns its place").hasSize(3);
        assertThat(redis.sent.get(2).toString()).contains("2");

        redis.replies.get(0).complete(null);
        redis.replies.get(2).complete(null);
        assertThat(redis.sent).hasSize(5);
        assertThat(redis.sent.get(3).toString()).contains("3");
        assertThat(redis.sent.get(4).toString()).contains("4");
        assertThat(bounded.waiting()).isZero();

        redis.replies.get(3).complete(null);
        redis.replies.get(4).complete(null);
        assertThat(bounded.inFlight()).isZero();
        assertThat(results).allSatisfy(f -> assertThat(f.isComplete()).isTrue());
    }
}
