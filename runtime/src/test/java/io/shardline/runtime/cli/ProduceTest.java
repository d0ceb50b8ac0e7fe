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
}
