package io.shardline.examples.template;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.worker.EmbeddedListener;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The template's test: the handler runs in-process as a listener on a real redis-server. */
@RedisTest
class TemplateHandlerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void handlesCompleteRecordsAndDeadLettersIncompleteOnes(RedisServer redis) {
        try (EmbeddedListener listener = EmbeddedListener.builder(redis.uri())
                .name("orders-check")
                .handler("template")
                .streams("orders:4")
                .handlerConfig("required.fields", "customer,amount")
                .start()) {
            for (int i = 0; i < 100; i++) {
                listener.produce("orders", "order-" + i, "customer", "c" + (i % 7), "amount", Integer.toString(i));
            }
            listener.produce("orders", "order-bad", "customer", "c1");

            listener.awaitHandled(100, TIMEOUT);
            listener.awaitDeadLettered(1, TIMEOUT);

            // Every record acknowledged exactly once; the handler may have seen good records twice: when a
            // batch fails, its records are retried one by one (at-least-once, so handlers are idempotent).
            assertThat(listener.handled()).isEqualTo(100);
            assertThat(listener.deadLettered()).isEqualTo(1);
            assertThat(listener.handlerCounter("records")).isGreaterThanOrEqualTo(100);
            assertThat(listener.deadLetters()).singleElement()
                    .satisfies(letter -> assertThat(letter.get("__dlq.error")).contains("has no field 'amount'"));
        }
    }
}
