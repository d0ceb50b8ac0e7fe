package io.shardline.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.config.ConfigException;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RedisTest
class EmbeddedListenerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void handlesGoodRecordsAndDeadLettersBadOnesOnEveryShard(RedisServer redis) {
        try (EmbeddedListener listener = EmbeddedListener.builder(redis.uri())
                .name("checks")
                .handler("checking")
                .streams("orders:3")
                .handlerConfig("required.field", "amount")
                .start()) {
            for (int i = 0; i < 30; i++) {
                listener.produce("orders", "customer-" + i, "amount", Integer.toString(i));
            }
            listener.produce("orders", "customer-x", "note", "no amount");

            listener.awaitHandled(30, TIMEOUT);
            listener.awaitDeadLettered(1, TIMEOUT);

            assertThat(listener.handled()).isEqualTo(30);
            // The good records of a failed batch are handed over again, one by one: at least once.
            assertThat(listener.handlerCounter("checked")).isGreaterThanOrEqualTo(30);
            List<Map<String, String>> letters = listener.deadLetters();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0)).containsEntry("note", "no amount")
                    .containsEntry("__dlq.listener", "checks");
            assertThat(letters.get(0).get("__dlq.error")).contains("has no field 'amount'");
        }
    }

    @Test
    void aSecondListenerOnTheSameShardsTakesOverWithAHigherEpoch(RedisServer redis) {
        EmbeddedListener.Builder builder = EmbeddedListener.builder(redis.uri())
                .name("again").handler(CheckingHandler.class).streams("payments:2")
                .handlerConfig("required.field", "amount");
        try (EmbeddedListener first = builder.start()) {
            first.produce("payments", "a", "amount", "1");
            first.awaitHandled(1, TIMEOUT);
        }
        try (EmbeddedListener second = builder.start()) {
            second.produce("payments", "b", "amount", "2");
            second.awaitHandled(1, TIMEOUT);
            assertThat(second.handled()).isEqualTo(1);
        }
    }

    @Test
    void aPausedListenerHandlesNothingAndTheTimeoutSaysWhatItSaw(RedisServer redis) {
        try (EmbeddedListener listener = EmbeddedListener.builder(redis.uri())
                .name("paused").handler("checking").streams("events:2")
                .handlerConfig("required.field", "n").start()) {
            listener.pause();
            listener.produce("events", "k", "n", "1");
            assertThatThrownBy(() -> listener.awaitHandled(1, Duration.ofMillis(300)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("1 record(s) handled by listener 'paused'")
                    .hasMessageContaining("0 handled, 0 dead-lettered");
            listener.resume();
            listener.awaitHandled(1, TIMEOUT);
        }
    }

    @Test
    void badSettingsAreReportedByKeyBeforeAnythingStarts(RedisServer redis) {
        assertThatThrownBy(() -> EmbeddedListener.builder(redis.uri())
                .handler("checking").streams("orders:0").set("max.attempts", "zero").start())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max.attempts = \"zero\"")
                .hasMessageContaining("streams = \"orders:0\"");
        assertThatThrownBy(() -> EmbeddedListener.builder(redis.uri()).handler("checking").streams("orders:1")
                .handlerConfig("required.field", "").start())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("handler.config.required.field");
        assertThatThrownBy(() -> EmbeddedListener.builder(redis.uri()).handler("no-such-handler").streams("o:1").start())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("no-such-handler");
    }

    @Test
    void producingToAStreamTheListenerDoesNotReadIsRefused(RedisServer redis) {
        try (EmbeddedListener listener = EmbeddedListener.builder(redis.uri())
                .name("refuse").handler("checking").streams("mine:1")
                .handlerConfig("required.field", "n").start()) {
            assertThatThrownBy(() -> listener.produce("other", "k", "n", "1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'other' is not one of this listener's streams");
        }
    }
}
