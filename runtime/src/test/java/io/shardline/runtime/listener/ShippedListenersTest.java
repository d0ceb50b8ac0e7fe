package io.shardline.runtime.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.config.Placeholders;
import io.shardline.runtime.control.ListenerLoader;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.topology.StreamSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The listener files shipped in config/listeners/ are valid with the example plugins. */
class ShippedListenersTest {

    @Test
    void shippedListenerFilesValidate() {
        Path dir = Path.of("..", "config", "listeners");
        assertThat(Files.isDirectory(dir)).as("config/listeners next to the runtime module").isTrue();
        try (Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader())) {
            ListenerLoader.Result result = ListenerLoader.loadAll(dir, plugins, Placeholders.system());
            assertThat(result.errors()).isEmpty();
            assertThat(result.listeners()).extracting(ListenerDefinition::name).contains("orders-log");
            ListenerConfig config = result.listeners().get(0).config();
            assertThat(config.streams()).containsExactly(new StreamSpec("orders", 16));
        }
    }
}
