package io.shardline.runtime.worker;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Fails when docs/configuration.md is not what the definitions generate; writes it with -Dshardline.docs.write=true. */
class WorkerConfigDocsTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void committedConfigurationDocIsCurrent() throws IOException {
        String expected = WorkerConfigDocs.render();
        if (Boolean.getBoolean("shardline.docs.write")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
            return;
        }
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
        if (!expected.equals(actual)) {
            fail("docs/configuration.md is stale (the worker config definitions changed). Regenerate it with:\n"
                    + "  mvn -B -ntp -q test -pl runtime -am -Dtest=WorkerConfigDocsTest "
                    + "-Dsurefire.failIfNoSpecifiedTests=false -Dshardline.docs.write=true\n"
                    + "and commit the result.");
        }
    }
}
