package io.shardline.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Fails when docs/cli.md is not what the picocli definitions generate; writes it with -Dshardline.docs.write=true. */
class CliDocsTest {

    private static final Path DOC = Path.of("..", "docs", "cli.md");

    @Test
    void committedCliReferenceIsCurrent() throws IOException {
        String expected = CliDocs.render();
        assertTrue(expected.contains("## shardline offsets reset"), "the reference covers the subcommands");
        if (Boolean.getBoolean("shardline.docs.write")) {
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
            return;
        }
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
        if (!expected.equals(actual)) {
            fail("docs/cli.md is stale (the bin/shardline commands changed). Regenerate it with:\n"
                    + "  mvn -B -ntp -q test -pl runtime -am -Dtest=CliDocsTest "
                    + "-Dsurefire.failIfNoSpecifiedTests=false -Dshardline.docs.write=true\n"
                    + "and commit the result.");
        }
    }
}
