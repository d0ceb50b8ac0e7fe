package io.shardline.coordinator.assignor.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.StreamDescription;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The generator is deterministic per seed and produces every feature it promises, with valid claims. */
class RandomProblemsTest {

    @Test
    void sameSeedGivesSameProblem() {
        for (long seed = 0; seed < 50; seed++) {
            assertThat(RandomProblems.generate(seed, ProblemShape.small()))
                    .isEqualTo(RandomProblems.generate(seed, ProblemShape.small()));
        }
    }

    @Test
    void producesEveryFeatureOverManySeeds() {
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 2_000; seed++) {
            AssignmentProblem p = RandomProblems.generate(seed, ProblemShape.small().withUnknownStreamChance(0.05));
            if (p.group().members().isEmpty()) {
                seen.add("no members");
            }
            for (StreamDescription s : p.shards().streams().values()) {
                seen.add(s.shardCount() == 0 ? "stream without shards" : "stream with shards");
                if (s.hasRackInformation()) {
                    seen.add("shard racks");
                }
            }
            Set<Set<String>> subscriptions = new HashSet<>();
            Map<String, Integer> claims = new java.util.HashMap<>();
            for (MemberSubscription m : p.group().members()) {
                subscriptions.add(m.subscriptions());
                m.instanceId().ifPresent(i -> seen.add("instance id"));
                m.rack().ifPresent(r -> seen.add("member rack"));
                if (!m.owned().isEmpty()) {
                    seen.add("previous ownership");
                }
                if (m.subscriptions().contains("ghost")) {
                    seen.add("unknown stream");
                }
                m.owned().forEach((stream, shards) -> {
                    assertThat(shards.max()).as("owned shards exist").isLessThan(p.shards().shardCount(stream));
                    shards.stream().forEach(i -> claims.merge(stream + ":" + i, 1, Integer::sum));
                });
            }
            if (claims.values().stream().anyMatch(c -> c > 1)) {
                seen.add("duplicate claims");
            }
            if (p.group().members().size() > 1) {
                seen.add(subscriptions.size() == 1 ? "identical subscriptions" : "different subscriptions");
            }
            assertThat(p.group().members().stream().flatMap(m -> m.instanceId().stream()))
                    .as("instance ids are distinct").doesNotHaveDuplicates();
        }
        assertThat(seen).contains("no members", "stream without shards", "stream with shards", "shard racks",
                "instance id", "member rack", "previous ownership", "unknown stream", "duplicate claims",
                "identical subscriptions", "different subscriptions");
    }
}
