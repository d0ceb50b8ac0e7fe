package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardId;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.stream.StreamMessageListenerContainer;
import org.springframework.data.redis.stream.StreamMessageListenerContainer.StreamMessageListenerContainerOptions;
import org.springframework.data.redis.stream.Subscription;

/**
 * Spring Data Redis's {@code StreamMessageListenerContainer} as its documentation sets it up, tuned as a user would
 * (batch size 100, poll timeout 100 ms): one subscription per shard ({@code receive}, so the listener acknowledges),
 * the listener acknowledging each record after the sink saw it. A listener that throws makes the container cancel
 * that shard's subscription (Spring's default, {@code cancelSubscriptionOnError}); {@link #errors()} counts the
 * exceptions its error handler was given and {@link #activeSubscriptions()} shows what is left.
 */
final class SpringContainerPeer implements Peer {

    private final LettuceConnectionFactory factory;
    private final StringRedisTemplate template;
    private final StreamMessageListenerContainer<String, MapRecord<String, String, String>> container;
    private final List<Subscription> subscriptions = new ArrayList<>();
    private final AtomicInteger errors = new AtomicInteger();

    SpringContainerPeer(String redisUri) {
        URI uri = URI.create(redisUri);
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
        factory.afterPropertiesSet();
        factory.start();
        template = new StringRedisTemplate(factory);
        StreamMessageListenerContainerOptions<String, MapRecord<String, String, String>> options =
                StreamMessageListenerContainerOptions.builder().batchSize(100).pollTimeout(Duration.ofMillis(100))
                        .errorHandler(e -> errors.incrementAndGet()).build();
        container = StreamMessageListenerContainer.create(factory, options);
    }

    @Override
    public String name() {
        return "spring-container";
    }

    @Override
    public void start(List<ShardId> shards, String group, Sink sink) {
        for (ShardId shard : shards) {
            subscriptions.add(container.receive(Consumer.from(group, "c"),
                    StreamOffset.create(shard.key(), ReadOffset.lastConsumed()), record -> {
                        sink.accept(shard, record.getValue().get("t"));
                        template.opsForStream().acknowledge(group, record);
                    }));
        }
        container.start();
    }

    /** Exceptions the container's error handler was given so far. */
    int errors() {
        return errors.get();
    }

    /** Subscriptions still active. */
    long activeSubscriptions() {
        return subscriptions.stream().filter(Subscription::isActive).count();
    }

    @Override
    public void close() {
        container.stop();
        factory.destroy();
    }
}
