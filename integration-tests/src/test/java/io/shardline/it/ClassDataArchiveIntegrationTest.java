package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data archive of the {@code bin/} commands (docs/operations.md, "Start time"), on a copy of the
 * distribution: an archive is used only with the JDK and jars its stamp names; after the jars change, a command says
 * on stderr that the archive is not used and how to make it again, and its stdout stays its output (a JVM warning
 * there would break {@code bin/assign}'s JSON); an unknown {@code SHARDLINE_CDS} is refused.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=ClassDataArchiveIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
class ClassDataArchiveIntegrationTest {

    /** One run: exit code, stdout and stderr. */
    private record Run(int exit, String out, String err) {
    }

    @TempDir
    Path copy;

    @Test
    void commandsUseTheArchiveOnlyWithItsJarsAndKeepTheirOutputClean() throws Exception {
        Path dist = Path.of(System.getProperty("shardline.dist.dir", "../dist/target/shardline-0.1.0-SNAPSHOT"));
        assertThat(dist.resolve("bin/shardline-run-class")).as("build the distribution first (mvn package)").exists();
        for (String dir : List.of("bin", "lib", "config")) {
            DirectoryTrees.copy(dist.resolve(dir), copy.resolve(dir));
        }
        Path archive = copy.resolve("cds/shardline.jsa");
        Files.createDirectories(archive.getParent());
        String version = run(Map.of("SHARDLINE_CDS", "off")).out();
        assertThat(version).startsWith("Shardline ");

        // What bin/shardline-cds does: a JVM that writes the archive of the classes it loaded, and its stamp.
        Run dump = run(Map.of("SHARDLINE_CDS", "dump:" + archive));
        assertThat(dump.exit()).as(dump.err()).isZero();
        assertThat(archive).isNotEmptyFile();
        assertThat(Path.of(archive + ".stamp")).isNotEmptyFile();

        Path classLog = copy.resolve("class-load.log");
        Run used = run(Map.of("JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog));
        assertThat(used.exit()).as(used.err()).isZero();
        assertThat(used.out()).isEqualTo(version);
        assertThat(used.err()).as("no note: the archive matches").doesNotContain("note:");
        assertThat(Files.readString(classLog)).as("classes came from the archive")
                .contains("source: shared objects file (top)");

        // The jars change (an upgrade in place): the archive is not used, and stderr says what to do.
        Path jar;
        try (Stream<Path> jars = Files.list(copy.resolve("lib"))) {
            jar = jars.filter(p -> p.getFileName().toString().startsWith("shardline-runtime")).findFirst().orElseThrow();
        }
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 10_000));
        Run stale = run(Map.of());
        assertThat(stale.exit()).as(stale.err()).isZero();
        assertThat(stale.out()).isEqualTo(version);
        assertThat(stale.err()).contains("note: the class-data archive " + archive, "is not used",
                "bin/shardline-cds <worker.properties>");

        // A stamp that matches an archive the JVM still refuses: its warning goes to stderr, never into the output.
        Path other = copy.resolve("cds/other.jsa");
        assertThat(run(Map.of("SHARDLINE_CDS", "dump:" + other)).exit()).isZero();
        Files.copy(Path.of(other + ".stamp"), Path.of(archive + ".stamp"), StandardCopyOption.REPLACE_EXISTING);
        Run warned = run(Map.of());
        assertThat(warned.exit()).as(warned.err()).isZero();
        assertThat(warned.out()).isEqualTo(version);
        assertThat(warned.err()).contains("[warning][cds");

        Run refused = run(Map.of("SHARDLINE_CDS", "on"));
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("SHARDLINE_CDS='on' is not one of auto", "or off");
    }

    /** {@code bin/shardline --version} of the copy, with {@code env}. */
    private Run run(Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile(copy, "out", ".txt");
        Path err = Files.createTempFile(copy, "err", ".txt");
        List<String> cmd = new ArrayList<>(List.of(copy.resolve("bin/shardline").toString(), "--version"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("SHARDLINE_CDS");
        pb.environment().remove("SHARDLINE_CDS_ARCHIVE");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/shardline --version finished").isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
