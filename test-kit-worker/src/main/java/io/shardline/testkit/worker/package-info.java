/**
 * A plugin author's test kit: {@link io.shardline.testkit.worker.EmbeddedListener} runs a handler plugin
 * as a listener inside the test's JVM against a real Redis (start one with
 * {@link io.shardline.testkit.redis.RedisTest}), with the same listener settings, plugin discovery,
 * polling, retries, dead letters and fenced acknowledgements as a worker; only the group coordinator is
 * left out (every shard is owned by the embedded listener). In the manner of Kafka Connect's
 * {@code EmbeddedConnectCluster}, a test is a few lines:
 *
 * <pre>{@code
 * @RedisTest
 * class MyHandlerTest {
 *     @Test
 *     void handlesEveryRecord(RedisServer redis) {
 *         try (EmbeddedListener listener = EmbeddedListener.builder(redis.uri())
 *                 .handler("my-handler")
 *                 .streams("orders:4")
 *                 .handlerConfig("some.setting", "42")
 *                 .start()) {
 *             listener.produce("orders", "customer-1", "amount", "12");
 *             listener.awaitHandled(1, Duration.ofSeconds(10));
 *         }
 *     }
 * }
 * }</pre>
 */
package io.shardline.testkit.worker;
