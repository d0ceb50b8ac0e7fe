package io.shardline.chaos;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Keeps the run directory of a chaos test that failed (the worker logs under {@code workers/}, the histories, Redis's
 * data under {@code redis/}, {@code report.txt}) in {@code target/chaos-failures/<test>-<seed>/} of the module, before
 * the test's temporary directory is deleted; a passing test's run is deleted with it. Runs right after the test method
 * (before {@code @TempDir} is cleaned up). Register it per instance; {@link #track} says where a failure would be kept,
 * so that the test's assertion messages can name the place.
 */
final class FailedRunEvidence implements AfterTestExecutionCallback {

    /** Where failed runs are kept: the module's {@code target/} (surefire runs in the module's directory). */
    static final Path ROOT = Path.of("target", "chaos-failures").toAbsolutePath();

    private Path workDir;
    private Path kept;

    /** The run in {@code workDir} of {@code test} with {@code seed}: returns where it is kept if the test fails. */
    Path track(Path workDir, String test, long seed) {
        this.workDir = workDir;
        this.kept = ROOT.resolve(test + "-" + seed);
        return kept;
    }

    @Override
    public void afterTestExecution(ExtensionContext context) throws IOException {
        if (workDir == null || context.getExecutionException().isEmpty()) {
            return;
        }
        DirectoryCopy.copy(workDir, kept);
        System.out.println("chaos: " + context.getDisplayName() + " failed; its run is kept in " + kept
                + " (worker logs under workers/, report.txt; check it again with bin/chaos --check " + kept + ")");
    }
}
