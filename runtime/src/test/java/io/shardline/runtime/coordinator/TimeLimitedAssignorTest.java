package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignment.AssignmentPendingException;
import io.shardline.coordinator.assignor.AssignorRegistry;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plugin assignor runs on its own thread: the coordinator's calls answer "pending" until it returned, then its
 * result or failure; past the time limit it is interrupted and reported. The clock is moved by hand.
 */
class TimeLimitedAssignorTest {

    private static final long TIMEOUT_MS = 1_000;
    private static final GroupSpec GROUP = GroupSpec.of(MemberSubscription.of("a", List.of("orders")));
    private static final ShardDescriber SHARDS = ShardDescriber.of(StreamDescription.of("orders", 2));

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicLong now = new AtomicLong(10_000);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch interrupted = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** Blocks until released (or interrupted), then answers as range, or throws when told to. */
    private Assignor gated(boolean fail) {
        return new Assignor() {
            @Override
            public String name() {
                return "gated";
            }

            @Override
            public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw new IllegalStateException("interrupted");
                }
                if (fail) {
                    throw new IllegalArgumentException("no shards for you");
                }
                return AssignorRegistry.builtIn("range").assign(group, shards);
            }
        };
    }

    private GroupAssignment awaitAnswer(TimeLimitedAssignor a) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                return a.assign(GROUP, SHARDS);
            } catch (AssignmentPendingException pending) {
                Thread.onSpinWait();
            }
        }
        throw new AssertionError("no answer");
    }

    @Test
    void answersPendingUntilThePluginReturnsThenItsResult() throws Exception {
        TimeLimitedAssignor a = new TimeLimitedAssignor(gated(false), executor, TIMEOUT_MS, now::get);
        assertThatThrownBy(() -> a.assign(GROUP, SHARDS)).isInstanceOf(AssignmentPendingException.class);
        now.addAndGet(TIMEOUT_MS - 1);
        assertThatThrownBy(() -> a.assign(GROUP, SHARDS)).isInstanceOf(AssignmentPendingException.class);
        release.countDown();
        assertThat(awaitAnswer(a).member("a").shards().get("orders").size()).isEqualTo(2);
    }

    @Test
    void aThrowingPluginIsReportedAsFailed() {
        release.countDown();
        TimeLimitedAssignor a = new TimeLimitedAssignor(gated(true), executor, TIMEOUT_MS, now::get);
        assertThatThrownBy(() -> awaitAnswer(a)).isInstanceOf(IllegalStateException.class)
                .hasMessage("threw IllegalArgumentException: no shards for you");
    }

    @Test
    void aPluginPastTheLimitIsInterruptedAndReported() throws Exception {
        TimeLimitedAssignor a = new TimeLimitedAssignor(gated(false), executor, TIMEOUT_MS, now::get);
        assertThatThrownBy(() -> a.assign(GROUP, SHARDS)).isInstanceOf(AssignmentPendingException.class);
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the plugin started").isTrue();
        now.addAndGet(TIMEOUT_MS);
        assertThatThrownBy(() -> a.assign(GROUP, SHARDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no answer within assignor.timeout.ms = 1000 ms");
        assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the plugin's thread was interrupted").isTrue();
        // The next run starts afresh.
        assertThatThrownBy(() -> a.assign(GROUP, SHARDS)).isInstanceOf(AssignmentPendingException.class);
    }
}
