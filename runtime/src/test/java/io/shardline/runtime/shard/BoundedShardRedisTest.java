package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The members' commands: at most the limit in flight, the rest sent in order as earlier ones return (a failure
 * returns its place too), each caller getting its own reply. The Redis underneath is a recording stand-in: what is
 * tested is the bound, not Redis.
 */
class BoundedShardRedisTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Records each command sent and holds its reply until the test completes it. */
    private static final class Recording implements ShardRedis {
        final List<Request> sent = new CopyOnWriteArrayList<>();
        final List<Promise<Response>> replies = new CopyOnWriteArrayList<>();

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
        Vertx vertx = Vertx.vertx();
        try {
            Recording redis = new Recording();
            BoundedShardRedis bounded = new BoundedShardRedis(vertx, redis, 2);
            List<Future<Response>> results = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                results.add(bounded.send(Request.cmd(Command.PING).arg(i)));
            }
            assertThat(redis.sent).hasSize(2);
            assertThat(bounded.inFlight()).isEqualTo(2);

            redis.replies.get(1).fail("boom");
            assertThat(results.get(1).failed()).isTrue();
            Await.until(() -> redis.sent.size() == 3, WAIT, 5, "a failure returns its place");
            assertThat(redis.sent.get(2).toString()).contains("2");

            redis.replies.get(0).complete(null);
            redis.replies.get(2).complete(null);
            Await.until(() -> redis.sent.size() == 5, WAIT, 5, "the last two sent as places come back");
            assertThat(redis.sent.get(3).toString()).contains("3");
            assertThat(redis.sent.get(4).toString()).contains("4");

            redis.replies.get(3).complete(null);
            redis.replies.get(4).complete(null);
            Await.until(() -> results.stream().allMatch(Future::isComplete), WAIT, 5, "every caller answered");
            assertThat(bounded.inFlight()).isZero();
        } finally {
            vertx.close();
        }
    }
}
