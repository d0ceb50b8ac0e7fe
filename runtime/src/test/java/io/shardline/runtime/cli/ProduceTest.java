package io.shardline.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.producer.KeyPartitioner;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

@RedisTest
class ProduceTest {

    @Test
    void writesTheRequestedRecordsToTheKeyedShards(RedisServer server) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Produce.run(new Produce(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
                "--redis", server.uri(), "--stream", "orders", "--shards", "4", "--count", "250", "--keys", "1", "--batch", "50");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(rc).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("done: 250 records");
        int shard = KeyPartitioner.shardFor("key-0", 4);
        try (var probe = server.probe()) {
            assertThat(String.valueOf(probe.call("XLEN", "{orders:" + shard + "}"))).isEqualTo("250");
        }
    }

    @Test
    void badOptionsGiveOneLineAndExitCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Produce.run(new Produce(System.out, new PrintStream(err, true, StandardCharsets.UTF_8)),
                "--stream", "orders", "--shards", "0");
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("--shards must be >= 1, got 0 (see --help)" + System.lineSeparator());
    }

    private static int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
        return Produce.run(new Produce(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), args);
    }

    /** Without --shards the count comes from the topology; a stream without one is refused, nothing written. */
    @Test
    void theShardCountComesFromTheTopologyAndAStreamWithoutOneIsRefused(RedisServer server) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int rc = run(out, err, "--redis", server.uri(), "--stream", "fresh", "--count", "10");

        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: stream 'fresh' has no topology")
                .contains("bin/shardline streams create fresh --shards N").doesNotContain("Exception");
        try (var probe = server.probe()) {
            assertThat(String.valueOf(probe.call("EXISTS", "{fresh:topology}"))).isEqualTo("0");
            assertThat(String.valueOf(probe.call("EXISTS", "{fresh:0}"))).isEqualTo("0");
        }

        ByteArrayOutputStream created = new ByteArrayOutputStream();
        assertThat(run(created, err, "--redis", server.uri(), "--stream", "fresh", "--shards", "3", "--cluster", "c7",
                "--count", "10")).isZero();
        assertThat(created.toString(StandardCharsets.UTF_8)).contains("(3 shards, routing epoch 1)");
        ByteArrayOutputStream followed = new ByteArrayOutputStream();
        assertThat(run(followed, err, "--redis", server.uri(), "--stream", "fresh", "--count", "20", "--keys", "1")).isZero();
        assertThat(followed.toString(StandardCharsets.UTF_8)).contains("(3 shards, routing epoch 1)").contains("done: 20 records");
        try (var probe = server.probe()) {
            assertThat(String.valueOf(probe.call("XLEN", "{fresh:" + KeyPartitioner.shardFor("key-0", 3) + "}")))
                    .as("the key's shard under the topology's 3 shards").isNotEqualTo("0");
            assertThat(String.valueOf(probe.call("HGET", "{shardline:c7}:streams", "fresh"))).isEqualTo("1");
        }
    }

    @Test
    void aShardCountThatDisagreesWithTheTopologyIsRefusedNamingBoth(RedisServer server) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(run(out, new ByteArrayOutputStream(), "--redis", server.uri(), "--stream", "fixed", "--shards", "4",
                "--count", "1")).isZero();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int rc = run(out, err, "--redis", server.uri(), "--stream", "fixed", "--shards", "8", "--count", "1");

        assertThat(rc).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("has 4 shards in its topology")
                .contains("was given 8").contains("bin/shardline streams reshard fixed --shards 8");
    }

    @Test
    void aClusterWithoutShardsIsRefused() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(run(new ByteArrayOutputStream(), err, "--stream", "s", "--cluster", "c")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("give --shards N too, or leave --cluster out");
    }
}
