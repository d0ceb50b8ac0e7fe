package io.shardline.examples.template;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The template assignor as a pure function, and its services file (what the worker's plugin scanner reads). */
class TemplateAssignorTest {

    private static final ShardDescriber ORDERS = ShardDescriber.of(StreamDescription.of("orders", 5));
    private final TemplateAssignor assignor = new TemplateAssignor();

    @Test
    void balancesAStreamOverItsSubscribers() {
        GroupAssignment result = assignor.assign(GroupSpec.of(MemberSubscription.of("b", List.of("orders")),
                MemberSubscription.of("a", List.of("orders")), MemberSubscription.of("c", List.of("payments"))), ORDERS);
        assertThat(result.member("a").shards()).isEqualTo(Map.of("orders", ShardSet.of(0, 1, 2)));
        assertThat(result.member("b").shards()).isEqualTo(Map.of("orders", ShardSet.of(3, 4)));
        assertThat(result.members()).containsKey("c");
        assertThat(result.member("c").shards()).isEmpty();
    }

    @Test
    void aMemberKeepsWhatItOwnedUpToItsShare() {
        // b owned everything; a joins: b keeps 2 of its shards (its share), a gets the other 3.
        MemberSubscription b = MemberSubscription.of("b", List.of("orders"))
                .withOwned(Map.of("orders", ShardSet.of(0, 1, 2, 3, 4)), 1);
        GroupAssignment result = assignor.assign(GroupSpec.of(MemberSubscription.of("a", List.of("orders")), b), ORDERS);
        assertThat(result.member("b").shards()).isEqualTo(Map.of("orders", ShardSet.of(0, 1)));
        assertThat(result.member("a").shards()).isEqualTo(Map.of("orders", ShardSet.of(2, 3, 4)));
    }

    @Test
    void theServicesFileListsIt() {
        assertThat(ServiceLoader.load(Assignor.class).stream().map(p -> p.get().name()))
                .contains("template-balanced");
    }
}
