package io.shardline.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener file edited, added or removed after the worker started is reported once per change, naming the file,
 * the changed keys and how to apply it; a file changed back is forgotten, so a later change is reported again;
 * comments and key order are not changes.
 */
class ListenerFileWatchTest {

    @TempDir
    Path dir;

    @Test
    void eachChangeIsReportedOnceWithTheKeysAndWhatToDo() throws IOException {
        Path file = write("orders-log", "# the orders\nhandler = logging-sink\nstreams = orders:16\nassignor = range\n");
        ListenerFileWatch watch = new ListenerFileWatch(dir, Map.of("orders-log",
                Map.of("handler", "logging-sink", "streams", "orders:16", "assignor", "range")));
        assertThat(watch.check()).isEmpty();

        write("orders-log", "streams = orders:16\nhandler = logging-sink\n# reordered, comment changed\nassignor = range\n");
        assertThat(watch.check()).as("comments and order are not changes").isEmpty();

        write("orders-log", "handler = logging-sink\nstreams = orders:16\nassignor = cooperative-sticky\n");
        List<String> changed = watch.check();
        assertThat(changed).singleElement().asString().contains(file.toString(), "changed after this worker started",
                "(key assignor)", "listener 'orders-log' still runs its old definition",
                "restart this worker to apply it", "docs/operations.md");
        assertThat(watch.check()).as("reported once").isEmpty();

        write("orders-log", "handler = logging-sink\nstreams = orders:16\nassignor = range\n");
        assertThat(watch.check()).as("back as it started").isEmpty();
        write("orders-log", "handler = logging-sink\nstreams = orders:16\nassignor = cooperative-sticky\n");
        assertThat(watch.check()).as("a new change after going back is reported again").hasSize(1);
    }

    @Test
    void anAddedAndARemovedFileAreReported() throws IOException {
        ListenerFileWatch watch = new ListenerFileWatch(dir, Map.of("old", Map.of("handler", "h", "streams", "a:1")));
        write("new", "handler = h\nstreams = b:2\n");
        assertThat(watch.check()).containsExactly(
                "Listener file " + dir.resolve("new.properties") + " was added after this worker started; listener "
                        + "'new' does not run here until the worker restarts: restart this worker to apply it, and "
                        + "change the file the same way on every worker (docs/operations.md, \"Upgrades and rolling "
                        + "restarts\"); a listener defined over REST (PUT /listeners/{name}/config) changes without a "
                        + "restart",
                "Listener file " + dir.resolve("old.properties") + " was removed after this worker started; listener "
                        + "'old' keeps running here until the worker restarts: restart this worker to apply it, and "
                        + "change the file the same way on every worker (docs/operations.md, \"Upgrades and rolling "
                        + "restarts\"); a listener defined over REST (PUT /listeners/{name}/config) changes without a "
                        + "restart");
        assertThat(watch.check()).isEmpty();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name + ".properties"), content);
    }
}
