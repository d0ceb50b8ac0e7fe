package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.testing.Await;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's heartbeat-now hint over a real Vert.x event bus: every member of the group named hears it but the
 * member that caused it; another group's and another cluster's hints reach nobody.
 */
class RebalanceHintsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Vertx vertx = Vertx.vertx();
    private final List<String> heard = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void everyMemberOfTheGroupButTheCauseHeartbeatsNow() {
        RebalanceHints hints = new RebalanceHints(vertx, "c1");
        for (String member : List.of("A", "B")) {
            result(hints.listen("g", member, () -> heard.add(member)).completion(), WAIT);
        }
        result(hints.listen("h", "C", () -> heard.add("C")).completion(), WAIT);

        new RebalanceHints(vertx, "c2").publish("g", "");
        hints.publish("h", "C");
        hints.publish("g", "A"); // A reported shards revoked: B may take them now
        Await.until(() -> heard.contains("B"), WAIT, 5, "B's hint");
        hints.publish("g", ""); // g's shard set changed
        Await.until(() -> heard.size() == 3, WAIT, 5, "both members' hints");

        assertThat(heard.subList(0, 1)).containsExactly("B");
        assertThat(heard.subList(1, 3)).containsExactlyInAnyOrder("A", "B");
    }
}
