package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Handler calls rebuilt from handling logs, and their dispatch windows. */
class HandlerCallTest {

    private static HandlingLine line(int shard, String entryId, long epoch, long startMs, long batch, long readyMs) {
        return new HandlingLine("chaos", "chaos", shard, entryId, 1, "w1-chaos-m0", epoch, startMs, startMs + 1, 1,
                batch, readyMs);
    }

    @Test
    void aCallIsARunOfLinesWithOneCallNumberAndOpensAtItsReadyTimeOrItsNewestRecord() {
        List<HandlerCall> calls = HandlerCall.of(List.of(
                line(1, "90-0", 4, 100, 6, 95), // call 6 wrote before call 5 (another shard)
                line(1, "98-0", 4, 101, 6, 95),
                line(2, "80-0", 4, 102, 5, 50),
                line(1, "99-0", 9, 300, 1, 250))); // the worker restarted: call numbers begin again

        assertThat(calls).containsExactly(
                new HandlerCall("w1-chaos-m0", 1, 4, "90-0", 2, 98, 100, 102),
                new HandlerCall("w1-chaos-m0", 2, 4, "80-0", 1, 80, 102, 103),
                new HandlerCall("w1-chaos-m0", 1, 9, "99-0", 1, 250, 300, 301));
    }

    @Test
    void linesWithoutCallNumbersAreCallsOfTheirOwnReadyWhenTheOwnersPreviousLineEnded() {
        List<HandlerCall> calls = HandlerCall.of(List.of(
                new HandlingLine("chaos", "chaos", 1, "5-0", 1, "w1-chaos-m0", 4, 100, 110, 1),
                new HandlingLine("chaos", "chaos", 2, "6-0", 2, "w1-chaos-m0", 4, 120, 130, 1),
                new HandlingLine("chaos", "chaos", 1, "7-0", 3, "w1-chaos-m0", 4, 140, 150, 1)));

        assertThat(calls).extracting(HandlerCall::dispatchFromMs).containsExactly(5L, 6L, 110L);
    }
}
