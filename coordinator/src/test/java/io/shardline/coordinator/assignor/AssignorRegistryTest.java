package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.assignor.Assignor;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssignorRegistryTest {

    private static final ClassLoader LOADER = AssignorRegistryTest.class.getClassLoader();

    @Test
    void findsBuiltInsByName() {
        assertThat(AssignorRegistry.builtIn("range")).isInstanceOf(RangeAssignor.class);
        assertThat(AssignorRegistry.builtIn("round-robin")).isInstanceOf(RoundRobinAssignor.class);
        assertThat(AssignorRegistry.find("range", LOADER)).isSameAs(AssignorRegistry.builtIn("range"));
        assertThat(AssignorRegistry.builtInNames()).startsWith("range", "round-robin");
        for (String name : AssignorRegistry.builtInNames()) {
            assertThat(AssignorRegistry.builtIn(name).name()).isEqualTo(name);
        }
    }

    @Test
    void listsEveryBuiltInClassThatIsOnTheClassPath() {
        long present = AssignorRegistry.BUILT_IN_CLASSES.stream().filter(AssignorRegistryTest::onClassPath).count();
        assertThat(AssignorRegistry.builtInNames()).hasSize((int) present);
    }

    @Test
    void unknownBuiltInNamesTheNameAndTheKnownOnes() {
        assertThatThrownBy(() -> AssignorRegistry.builtIn("rnage"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown assignor 'rnage': the built-in assignors are range, round-robin");
    }

    @Test
    void findsACustomAssignorByClassNameOnlyWhenAServicesFileListsIt(@TempDir Path dir) throws IOException {
        try (URLClassLoader plugins = pluginLoader(dir, FirstMemberAssignor.class.getName())) {
            assertThat(AssignorRegistry.find(FirstMemberAssignor.class.getName(), plugins))
                    .isInstanceOf(FirstMemberAssignor.class);
        }
        assertThatThrownBy(() -> AssignorRegistry.find(FirstMemberAssignor.class.getName(), LOADER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown assignor '" + FirstMemberAssignor.class.getName() + "'");
    }

    @Test
    void findsACustomAssignorByNameThroughServiceLoader(@TempDir Path dir) throws IOException {
        try (URLClassLoader plugins = pluginLoader(dir, FirstMemberAssignor.class.getName())) {
            assertThat(AssignorRegistry.find(FirstMemberAssignor.NAME, plugins)).isInstanceOf(FirstMemberAssignor.class);
        }
        assertThatThrownBy(() -> AssignorRegistry.find(FirstMemberAssignor.NAME, LOADER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown assignor 'first-member'");
    }

    @Test
    void unknownCustomAssignorListsPluginAssignorsAndBrokenProviders(@TempDir Path dir) throws IOException {
        try (URLClassLoader plugins = pluginLoader(dir, FirstMemberAssignor.class.getName() + "\ncom.example.Missing")) {
            assertThatThrownBy(() -> AssignorRegistry.find("nope", plugins))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown assignor 'nope'")
                    .hasMessageContaining("plugin assignors found: first-member")
                    .hasMessageContaining("com.example.Missing");
        }
    }

    @Test
    void neverLoadsAClassNoServicesFileLists() {
        // Issue 16.3: any class name used to be loaded (and its static initialiser run).
        for (String name : new String[] {"javax.swing.JFrame", FirstMemberAssignor.NotAnAssignor.class.getName(),
                FirstMemberAssignor.NeedsArgument.class.getName()}) {
            assertThatThrownBy(() -> AssignorRegistry.find(name, LOADER))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("unknown assignor '" + name + "'");
        }
    }

    private static URLClassLoader pluginLoader(Path dir, String services) throws IOException {
        Path file = dir.resolve("META-INF/services/" + Assignor.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, services + "\n");
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, LOADER);
    }

    private static boolean onClassPath(String className) {
        try {
            Class.forName(className, false, LOADER);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
