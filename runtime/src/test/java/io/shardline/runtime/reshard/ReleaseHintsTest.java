package io.shardline.runtime.reshard;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.testing.Await;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The resharding hints over a real Vert.x event bus: a worker's members get the leader's {@code released} and
 * {@code watch} hints as published, and the leader's task gets a member's {@code drained} report; another cluster's
 * hints reach neither.
 */
class ReleaseHintsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Vertx vertx = Vertx.vertx();
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void membersGetReleasesAndWatchesAndTheLeaderGetsDrainedReports() {
        ReleaseHints hints = new ReleaseHints(vertx, "c1");
        result(hints.listen(new ReleaseHints.Members() {
            @Override
            public void released(String stream, Set<String> groups) {
                seen.add("released " + stream + " " + groups);
            }

            @Override
            public void watch(String stream, String group, Map<Integer, String> cutovers) {
                seen.add("watch " + stream + " " + group + " " + cutovers);
            }
        }).completion(), WAIT);
        result(hints.onDrained(() -> seen.add("nudge")).completion(), WAIT);
        ReleaseHints other = new ReleaseHints(vertx, "c2");

        other.publish("orders", Set.of("g"));
        other.drained(new ShardId("orders", 3), "g");
        hints.publish("orders", Set.of("g", "h"));
        Await.until(() -> seen.size() == 1, WAIT, 5, "the release");
        hints.watch("orders", "g", Map.of(3, "5-0", 11, "7-1"));
        Await.until(() -> seen.size() == 2, WAIT, 5, "the watch");
        hints.drained(new ShardId("orders", 3), "g");
        Await.until(() -> seen.size() == 3, WAIT, 5, "the drained report");

        assertThat(seen).containsExactly("released orders [g, h]", "watch orders g {3=5-0, 11=7-1}", "nudge");
    }
}
