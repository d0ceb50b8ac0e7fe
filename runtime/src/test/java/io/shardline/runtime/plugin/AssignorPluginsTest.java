package io.shardline.runtime.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.AssignorRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Assignors are chosen among the built-ins and the discovered plugins only, and run under their own loader. */
class AssignorPluginsTest {

    @TempDir
    Path pluginPath;

    @Test
    void aPluginOnThePluginPathIsFoundByNameAndClassAndRunsIsolated() {
        TestPlugins.jar("lowest-member-assignor", pluginPath);
        try (Plugins plugins = Plugins.load(List.of(pluginPath), getClass().getClassLoader())) {
            AssignorPlugins assignors = new AssignorPlugins(plugins);
            assertThat(assignors.plugins()).singleElement().satisfies(p -> {
                assertThat(p.alias()).isEqualTo("lowest-member");
                assertThat(p.loader()).isInstanceOf(PluginClassLoader.class);
            });
            assertThat(assignors.problem("lowest-member")).isEmpty();
            assertThat(assignors.problem("fixture.assignor.LowestMemberAssignor")).isEmpty();
            Assignor a = assignors.resolve("lowest-member");
            GroupAssignment result = a.assign(GroupSpec.of(MemberSubscription.of("b", List.of("orders")),
                    MemberSubscription.of("a", List.of("orders"))), ShardDescriber.of(StreamDescription.of("orders", 3)));
            assertThat(result.member("a").shards().get("orders")).isEqualTo(ShardSet.of(0, 1, 2));
            assertThat(result.member("b").shards()).isEmpty();
            assertThat(assignors.resolve("range")).isSameAs(AssignorRegistry.builtIn("range"));
        }
    }

    @Test
    void anyOtherNameIsRefusedWithoutLoadingAClass() {
        try (Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader())) {
            AssignorPlugins assignors = new AssignorPlugins(plugins);
            // Issue 16.3: a class name used to be loaded by the leader, whatever it named.
            assertThat(assignors.problem("javax.swing.JFrame")).hasValueSatisfying(reason -> assertThat(reason)
                    .startsWith("unknown assignor 'javax.swing.JFrame'")
                    .contains("range, round-robin, sticky, cooperative-sticky")
                    .contains("assignor plugins installed here: none")
                    .contains("on plugin.path of every worker"));
            assertThatThrownBy(() -> assignors.resolve("lowest-member"))
                    .isInstanceOf(PluginException.class)
                    .hasMessageContaining("unknown assignor 'lowest-member'");
        }
    }
}
