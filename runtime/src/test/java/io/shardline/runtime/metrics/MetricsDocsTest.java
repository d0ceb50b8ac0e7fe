package io.shardline.runtime.metrics;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Fails when docs/metrics.md is not what the catalog generates; writes it with -Dshardline.docs.write=true. */
class MetricsDocsTest {

    private static final Path DOC = Path.of("..", "docs", "metrics.md");

    @Test
    void committedMetricsDocIsCurrent() throws IOException {
        String expected = MetricsDocs.render();
        if (Boolean.getBoolean("shardline.docs.write")) {
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
            return;
        }
        String actual = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
        if (!expected.equals(actual)) {
            fail("docs/metrics.md is stale (the metric catalog changed). Regenerate it with:\n"
                    + "  mvn -B -ntp -q test -pl runtime -am -Dtest=MetricsDocsTest "
                    + "-Dsurefire.failIfNoSpecifiedTests=false -Dshardline.docs.write=true\n"
                    + "and commit the result.");
        }
    }
}
