package io.shardline.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawConfigTest {

    @Test
    void keepsTheStartLineOfEachEntry() {
        String text = String.join("\n",
                "# comment",
                "! also a comment \\",
                "a = 1",
                "",
                "b: two \\",
                "   words",
                "c three",
                "d=\\u0041\\tb");
        RawConfig raw = RawConfig.parse(text, "f", null);
        assertEquals(List.of(
                new RawConfig.RawValue("a", "1", "f", 3),
                new RawConfig.RawValue("b", "two words", "f", 5),
                new RawConfig.RawValue("c", "three", "f", 7),
                new RawConfig.RawValue("d", "A\tb", "f", 8)), List.copyOf(raw.values().values()));
        assertThat(raw.errors()).isEmpty();
    }

    @Test
    void duplicatesAndBadEscapesAreErrors() {
        RawConfig raw = RawConfig.parse("a=1\nb=\\u00zz\na=2\n", "f", null);
        assertThat(raw.errors()).containsExactly(
                new ConfigError(null, null, "f", 2, "malformed entry: Malformed \\uxxxx encoding."),
                new ConfigError("a", null, "f", 3, "set twice (first on line 1); remove one"));
        assertEquals("1", raw.get("a").orElseThrow().text());
    }

    @Test
    void missingFileIsOneClearError(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> RawConfig.load(missing))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.errors()).containsExactly(
                        new ConfigError(null, null, missing.toString(), 0, "the file does not exist")));
    }

    @Test
    void fileAndPlaceholderFromSiblingFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("secrets.properties"), "redis.password=pw1\n");
        Path worker = dir.resolve("worker.properties");
        Files.writeString(worker, "redis.password=${file:secrets.properties:redis.password}\nx=${file:secrets.properties:nokey}\n");
        RawConfig raw = RawConfig.load(worker);
        Placeholders placeholders = new Placeholders(n -> null);
        assertEquals("pw1", placeholders.resolve(raw.get("redis.password").orElseThrow().text(), raw.baseDir()));
        assertThatThrownBy(() -> placeholders.resolve(raw.get("x").orElseThrow().text(), raw.baseDir()))
                .hasMessage("key 'nokey' is not in " + dir.resolve("secrets.properties"));
        assertThatThrownBy(() -> placeholders.resolve("${file:missing.properties:k}", dir))
                .hasMessage(dir.resolve("missing.properties") + " does not exist");
        assertThatThrownBy(() -> placeholders.resolve("${vault:k}", dir)).hasMessageContaining("unknown placeholder");
    }
}
