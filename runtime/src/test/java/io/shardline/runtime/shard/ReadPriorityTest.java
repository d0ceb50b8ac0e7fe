package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadPriorityTest {

    private final ReadPriority priority = new ReadPriority();
    private final List<String> ran = new ArrayList<>();

    @Test
    void aCallGoesAtOnceWhenNoReadIsInFlight() {
        priority.afterReadsInFlight(() -> ran.add("heavy"));
        assertThat(ran).containsExactly("heavy");
    }

    @Test
    void aCallWaitsForTheReadsInFlightWhenItCameButNotForLaterOnes() {
        long first = priority.started();
        long second = priority.started();
        priority.afterReadsInFlight(() -> ran.add("heavy 1"));
        long later = priority.started(); // started after the call became due: does not hold it up
        priority.afterReadsInFlight(() -> ran.add("heavy 2"));

        priority.ended(second);
        assertThat(ran).isEmpty();
        priority.ended(first);
        assertThat(ran).as("both reads it waited for returned").containsExactly("heavy 1");
        assertThat(priority.inFlight()).isEqualTo(1);

        long afterThat = priority.started();
        priority.ended(later);
        assertThat(ran).as("heavy 2 waited for 'later' only").containsExactly("heavy 1", "heavy 2");
        priority.ended(afterThat);
        priority.ended(afterThat); // a ticket ends once; a second end changes nothing
        assertThat(priority.inFlight()).isZero();
    }
}
