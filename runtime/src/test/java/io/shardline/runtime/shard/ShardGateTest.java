package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.HandlerMetrics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every edge of the shard's one transition gate ({@link OwnedShard#transition}): each phase edge and each activity
 * edge, legal ones move the shard, illegal ones are refused and change nothing; the named combinations of phase and
 * activity. The start state of each case is reached through the gate itself, along legal edges only.
 */
class ShardGateTest {

    private record State(ShardPhase phase, ShardActivity activity) {
    }

    static Stream<Arguments> phaseEdges() {
        List<Arguments> out = new ArrayList<>();
        for (ShardPhase from : ShardPhase.values()) {
            for (ShardPhase to : ShardPhase.values()) {
                if (from != to) {
                    out.add(Arguments.of(from, to));
                }
            }
        }
        return out.stream();
    }

    static Stream<Arguments> activityEdges() {
        List<Arguments> out = new ArrayList<>();
        for (ShardActivity from : ShardActivity.values()) {
            for (ShardActivity to : ShardActivity.values()) {
                if (from != to && from != ShardActivity.DONE) {
                    out.add(Arguments.of(from, to));
                }
            }
        }
        return out.stream();
    }

    /** A phase edge, from a state where the activity may stay (PARKED; DONE once terminal). */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("phaseEdges")
    void phaseEdge(ShardPhase from, ShardPhase to) {
        ShardActivity fromActivity = from.active() ? ShardActivity.PARKED : ShardActivity.DONE;
        ShardActivity toActivity = to.active() ? fromActivity : ShardActivity.DONE;
        OwnedShard s = at(new State(from, fromActivity));
        boolean legal = to.previousValidPhases().contains(from) && (from.active() || !to.active());
        if (legal) {
            s.transition(to, toActivity, "test");
            assertThat(new State(s.phase(), s.activity())).isEqualTo(new State(to, toActivity));
        } else {
            assertThatThrownBy(() -> s.transition(to, toActivity, "test")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("illegal transition").hasMessageContaining("member A shard orders:0 epoch 7");
            assertThat(new State(s.phase(), s.activity())).isEqualTo(new State(from, fromActivity));
        }
    }

    /** An activity edge while READING (the phase where every activity but DONE is allowed). */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("activityEdges")
    void activityEdge(ShardActivity from, ShardActivity to) {
        OwnedShard s = at(new State(ShardPhase.READING, from));
        boolean legal = to.previousValid().contains(from) && to != ShardActivity.DONE;
        if (legal) {
            s.transition(ShardPhase.READING, to, "test");
            assertThat(s.activity()).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> s.transition(ShardPhase.READING, to, "test")).isInstanceOf(IllegalStateException.class);
            assertThat(s.activity()).isEqualTo(from);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allStates")
    void combinations(ShardPhase phase, ShardActivity activity) {
        boolean expected = phase.active()
                ? activity != ShardActivity.DONE && (activity != ShardActivity.IDLE && activity != ShardActivity.LINGERING
                        || phase == ShardPhase.READING)
                : activity == ShardActivity.DONE || activity == ShardActivity.STARTING || activity == ShardActivity.STEPPING
                        || activity == ShardActivity.HANDLING;
        assertThat(OwnedShard.allowed(phase, activity)).as(phase + "/" + activity).isEqualTo(expected);
    }

    static Stream<Arguments> allStates() {
        List<Arguments> out = new ArrayList<>();
        for (ShardPhase p : ShardPhase.values()) {
            for (ShardActivity a : ShardActivity.values()) {
                out.add(Arguments.of(p, a));
            }
        }
        return out.stream();
    }

    /** A new shard, moved through the gate along a shortest path of legal single moves to {@code target}. */
    private static OwnedShard at(State target) {
        State start = new State(ShardPhase.TAKING_OVER, ShardActivity.STARTING);
        Map<State, State> previous = new HashMap<>();
        previous.put(start, start);
        ArrayDeque<State> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty() && !previous.containsKey(target)) {
            State s = queue.poll();
            for (State next : neighbours(s)) {
                if (previous.putIfAbsent(next, s) == null) {
                    queue.add(next);
                }
            }
        }
        assertThat(previous).as("reachable: " + target).containsKey(target);
        List<State> path = new ArrayList<>();
        for (State s = target; !s.equals(start); s = previous.get(s)) {
            path.add(0, s);
        }
        OwnedShard shard = new OwnedShard(new Fence(MachineHarness.shard(0), "g", "A", 7),
                new MemberContext("l", "A", "g", new ConfigDef().parse(Map.of()), HandlerMetrics.noop()));
        path.forEach(s -> shard.transition(s.phase(), s.activity(), "set up"));
        return shard;
    }

    private static List<State> neighbours(State s) {
        List<State> out = new ArrayList<>();
        for (ShardPhase p : ShardPhase.values()) {
            for (ShardActivity a : ShardActivity.values()) {
                boolean phaseOk = p == s.phase() || p.previousValidPhases().contains(s.phase());
                boolean activityOk = a == s.activity() || a.previousValid().contains(s.activity());
                if (phaseOk && activityOk && OwnedShard.allowed(p, a) && !(p == s.phase() && a == s.activity())) {
                    out.add(new State(p, a));
                }
            }
        }
        return out;
    }
}
