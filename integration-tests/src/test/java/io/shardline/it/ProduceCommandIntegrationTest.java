package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.producer.KeyPartitioner;
import io.shardline.testkit.dist.DistributionArchive;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/produce} from the distribution, as a user runs it (docs/operations.md, "Producers"; docs/cli.md): a
 * stream without topology is refused with the command that creates it and nothing written; {@code --shards} creates
 * it; without {@code --shards} the count and routing epoch come from the topology, also after a change of the shard
 * count; a {@code --shards} that disagrees is refused naming both counts.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=ProduceCommandIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ProduceCommandIntegrationTest {

    /** One run: exit code and output (stdout and stderr together). */
    private record Run(int exit, String out) {
    }

    @Test
    void produceFollowsTheStreamTopology(RedisServer redis) throws Exception {
        Path dist = Path.of(System.getProperty("shardline.dist.dir", "../dist/target/shardline-0.1.0-SNAPSHOT"));
        assertThat(dist.resolve("bin/produce")).as("build the distribution first (mvn package)").exists();
        DistributionArchive.ensure(dist); // a stale archive would add a JVM warning to the output
        Path dir = Files.createDirectories(Path.of("target", "it-work", "produce")).toAbsolutePath();

        Run refused = run(dist, dir, "--redis", redis.uri(), "--stream", "orders", "--count", "10");
        assertThat(refused.exit()).as(refused.out()).isEqualTo(2);
        assertThat(refused.out()).contains("error: stream 'orders' has no topology ({orders:topology})",
                "bin/shardline streams create orders --shards N").doesNotContain("Exception", "\tat ");
        try (RespProbe probe = redis.probe()) {
            assertThat(probe.call("KEYS", "*orders*")).as("nothing written").isEqualTo(List.of());
        }

        Run created = run(dist, dir, "--redis", redis.uri(), "--stream", "orders", "--shards", "4", "--cluster", "it",
                "--count", "100", "--keys", "1");
        assertThat(created.exit()).as(created.out()).isZero();
        assertThat(created.out()).contains("(4 shards, routing epoch 1)", "done: 100 records");
        try (RespProbe probe = redis.probe()) {
            assertThat(probe.call("XLEN", "{orders:" + KeyPartitioner.shardFor("key-0", 4) + "}")).isEqualTo(100L);
            assertThat(probe.call("HGET", "{shardline:it}:streams", "orders")).isEqualTo("1");
            // A change to 8 shards as the leader starts it: the record first, then the flips.
            probe.call("HSET", "{orders:topology}", "shards", "8", "routing_epoch", "2", "state", "RESHARDING");
        }

        Run followed = run(dist, dir, "--redis", redis.uri(), "--stream", "orders", "--count", "50", "--keys", "1");
        assertThat(followed.exit()).as(followed.out()).isZero();
        assertThat(followed.out()).contains("(8 shards, routing epoch 2)", "done: 50 records");
        int newShard = KeyPartitioner.shardFor("key-0", 8);
        try (RespProbe probe = redis.probe()) {
            long expected = newShard == KeyPartitioner.shardFor("key-0", 4) ? 150L : 50L;
            assertThat(probe.call("XLEN", "{orders:" + newShard + "}")).isEqualTo(expected);
            assertThat(probe.call("HGET", "{orders:" + newShard + "}:routing", "epoch"))
                    .as("the first write of the new layout flipped the shard").isEqualTo("2");
        }

        Run disagrees = run(dist, dir, "--redis", redis.uri(), "--stream", "orders", "--shards", "4", "--count", "1");
        assertThat(disagrees.exit()).as(disagrees.out()).isEqualTo(2);
        assertThat(disagrees.out()).contains("has 8 shards in its topology", "was given 4");
    }

    private static Run run(Path dist, Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(dist.resolve("bin/produce").toString()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("produce-" + System.nanoTime() + ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/produce %s finished", List.of(args)).isTrue();
        return new Run(p.exitValue(), Files.readString(out));
    }
}
