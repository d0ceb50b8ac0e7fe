package io.shardline.runtime.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.plugin.fixture.Shadowed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginsTest {

    @TempDir
    Path pluginPath;

    @Test
    void handlerIsLoadedChildFirstAndCalledUnderItsOwnLoader() throws Exception {
        TestPlugins.jar("echo-handler", pluginPath);
        try (Plugins plugins = Plugins.load(List.of(pluginPath), getClass().getClassLoader())) {
            PluginDesc echo = plugins.find(io.shardline.api.handler.Handler.class, "echo").orElseThrow();
            assertThat(echo.className()).isEqualTo("fixture.echo.EchoHandler");
            assertThat(echo.location()).isEqualTo(pluginPath.resolve("echo-handler.jar").toString());
            assertThat(echo.version()).isEqualTo("1.2.3");
            assertThat(echo.loader()).isInstanceOf(PluginClassLoader.class);

            HandlerPlugin handler = plugins.newHandler("fixture.echo.EchoHandler");
            ClassLoader before = Thread.currentThread().getContextClassLoader();
            handler.handleBatch(List.of(new StreamRecord(new ShardId("s", 0), "1-0", Map.of(), 1)), null)
                    .toCompletableFuture().join();
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);

            Class<?> echoClass = handler.handler().getClass();
            @SuppressWarnings("unchecked")
            List<String> seen = (List<String>) echoClass.getField("SEEN").get(null);
            assertThat(seen).containsExactly("1-0|true");
            // The plugin bundles its own io.shardline.runtime.plugin.fixture.Shadowed: child-first wins.
            assertThat(handler.handler().description()).startsWith("plugin|");
            assertThat(Shadowed.origin()).isEqualTo("worker");
            // The API type is shared with the worker (parent-first), or the cast above would have failed.
            assertThat(echo.loader().loadClass(StreamRecord.class.getName())).isSameAs(StreamRecord.class);
        }
    }

    @Test
    void throwingStaticInitializerIsReportedAndTheSiblingStillLoads() {
        Path jar = TestPlugins.jar("echo-handler", pluginPath);
        try (Plugins plugins = Plugins.load(List.of(pluginPath), getClass().getClassLoader())) {
            assertThat(plugins.handlers()).extracting(PluginDesc::alias).contains("echo");
            assertThat(plugins.errors()).singleElement().satisfies(e -> {
                assertThat(e.location()).isEqualTo(jar.toString());
                assertThat(e.className()).isEqualTo("fixture.echo.BrokenInit");
                assertThat(e.reason()).contains("could not be instantiated").contains("ExceptionInInitializerError")
                        .contains("not a number");
            });
            assertThatThrownBy(() -> plugins.newHandler("fixture.echo.BrokenInit"))
                    .isInstanceOf(PluginException.class)
                    .hasMessageContaining("no handler plugin named 'fixture.echo.BrokenInit'")
                    .hasMessageContaining("echo (fixture.echo.EchoHandler)")
                    .hasMessageContaining("ExceptionInInitializerError");
        }
    }

    @Test
    void missingClassAndPrivateConstructorAreReportedWithPathAndReason() {
        Path jar = TestPlugins.jar("no-public-ctor", pluginPath);
        try (Plugins plugins = Plugins.load(List.of(pluginPath), getClass().getClassLoader())) {
            assertThat(plugins.handlers()).noneMatch(p -> p.location().equals(jar.toString()));
            assertThat(plugins.errors()).extracting(PluginError::toString).containsExactlyInAnyOrder(
                    jar + ": fixture.ctor.Hidden: io.shardline.api.handler.Handler: fixture.ctor.Hidden Unable to get public no-arg constructor"
                            + "; caused by java.lang.NoSuchMethodException: fixture.ctor.Hidden.<init>()",
                    jar + ": fixture.ctor.Missing: io.shardline.api.handler.Handler: Provider fixture.ctor.Missing not found");
        }
    }

    @Test
    void corruptJarMissingFolderAndDuplicatesNeverStopTheOthers() throws IOException {
        Path corrupt = Files.write(pluginPath.resolve("corrupt.jar"), new byte[] {1, 2, 3, 4, 5});
        Path folderPlugin = Files.createDirectories(pluginPath.resolve("folder-b"));
        Files.move(TestPlugins.jar("duplicate-b", pluginPath), folderPlugin.resolve("duplicate-b.jar"));
        Path dupA = TestPlugins.jar("duplicate-a", pluginPath);
        TestPlugins.jar("echo-handler", pluginPath);
        Path missing = pluginPath.resolve("does-not-exist");

        try (Plugins plugins = Plugins.load(List.of(pluginPath, missing), getClass().getClassLoader())) {
            assertThat(plugins.handlers()).extracting(PluginDesc::alias).contains("echo", "Dup");
            PluginDesc dup = plugins.find(io.shardline.api.handler.Handler.class, "fixture.dup.Dup").orElseThrow();
            assertThat(dup.location()).isEqualTo(dupA.toString()); // sorted: duplicate-a.jar before folder-b
            assertThat(plugins.errors()).extracting(PluginError::toString).contains(
                    corrupt + ": not a readable jar (zip END header not found)",
                    folderPlugin + ": fixture.dup.Dup: duplicate: the same class is also in " + dupA
                            + "; that copy is used and this one is ignored",
                    missing + ": plugin.path entry does not exist");
        }
    }

    @Test
    void isolationRules() {
        assertThat(PluginUtils.shouldLoadInIsolation("java.lang.String")).isFalse();
        assertThat(PluginUtils.shouldLoadInIsolation("io.shardline.api.handler.Handler")).isFalse();
        assertThat(PluginUtils.shouldLoadInIsolation("org.slf4j.Logger")).isFalse();
        assertThat(PluginUtils.shouldLoadInIsolation("com.fasterxml.jackson.databind.ObjectMapper")).isTrue();
        assertThat(PluginUtils.shouldLoadInIsolation("io.shardline.apix.Foo")).isTrue();
        assertThat(PluginUtils.shouldLoadInIsolation("io.shardline.runtime.plugin.fixture.Shadowed")).isTrue();
    }
}
