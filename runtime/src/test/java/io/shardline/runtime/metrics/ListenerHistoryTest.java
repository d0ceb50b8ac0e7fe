package io.shardline.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.entity.HistoryPoint;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ring buffer behind the console's charts: rates from running totals, aligned intervals, 15 minutes kept. */
class ListenerHistoryTest {

    @Test
    void ratesComeFromTheDifferenceToThePreviousSample() {
        ListenerHistory history = new ListenerHistory();
        history.record("orders", 10_000, 1_000, 10, 0);
        assertThat(history.points("orders")).as("the first sample is only a baseline").isEmpty();
        history.record("orders", 14_000, 1_400, 12, 9);
        // 400 records and 2 dead letters in 4 s; the interval starts at a multiple of 5 s.
        assertEquals(List.of(new HistoryPoint(10_000, 100.0, 0.5, 9)), history.points("orders"));
        // A total that went down (the listener started again here) counts as nothing handled, not a negative rate.
        history.record("orders", 19_000, 50, 0, 3);
        assertEquals(new HistoryPoint(15_000, 0.0, 0.0, 3), history.points("orders").get(1));
    }

    @Test
    void aSecondSampleInOneIntervalReplacesTheFirst() {
        ListenerHistory history = new ListenerHistory();
        history.record("orders", 0, 0, 0, 0);
        history.record("orders", 5_000, 50, 0, 1);
        history.record("orders", 7_000, 70, 0, 2);
        assertEquals(List.of(new HistoryPoint(5_000, 10.0, 0.0, 2)), history.points("orders"));
    }

    @Test
    void keepsFifteenMinutesAndForgetsDeletedListeners() {
        ListenerHistory history = new ListenerHistory();
        for (int i = 0; i <= ListenerHistory.CAPACITY + 20; i++) {
            history.record("orders", i * ListenerHistory.INTERVAL_MS, i, 0, 0);
            history.record("audit", i * ListenerHistory.INTERVAL_MS, 0, 0, 0);
        }
        List<HistoryPoint> points = history.points("orders");
        assertThat(points).hasSize(ListenerHistory.CAPACITY);
        assertEquals((ListenerHistory.CAPACITY + 20) * ListenerHistory.INTERVAL_MS, points.get(points.size() - 1).timeMs());
        assertEquals(ListenerHistory.CAPACITY * ListenerHistory.INTERVAL_MS * 1, 900_000);
        history.retain(Set.of("orders"));
        assertThat(history.points("audit")).isEmpty();
        assertThat(history.points("orders")).hasSize(ListenerHistory.CAPACITY);
    }
}
