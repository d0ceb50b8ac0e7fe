package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every command the README and docs/ show is checked against the product (docs/testing.md): each
 * {@code bin/} script it names exists and takes every option it is shown with (checked against the
 * script's own {@code --help}, run from the built source tree), each Maven module and test class a
 * {@code mvn} line names exists, and each class a {@code java} line runs exists. The commands a user runs
 * first are also run end to end elsewhere: {@code bin/quickstart --once} (QuickstartTest),
 * {@code bin/start-worker}/{@code bin/stop-worker} (the cluster tests), {@code bin/install-sdk} and the
 * template's {@code mvn verify} (PluginKitOutsideCheckoutTest), {@code bin/assign} and {@code bin/produce}
 * (runtime's AssignTest and ProduceTest).
 */
@Tag("integration")
class DocCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern FENCE = Pattern.compile("^```(bash|sh|shell)\\s*$");
    private static final Pattern INLINE = Pattern.compile(
            "`((?:<shardline-home>/|dist/target/shardline-\\*/|\\$D/)?bin/[a-z-]+(?: [^`]*)?|mvn [^`]+|java [^`]+)`");
    private static final Pattern SCRIPT = Pattern.compile("(?:^|[\\s/])bin/([a-z][a-z-]*)((?: [^|;&]*)?)");
    private static final Pattern OPTION = Pattern.compile("(?<=\\s|^)(--[a-z][a-z-]*)");
    /** Scripts whose {@code --help} would do work; their options are checked against the script's text. */
    private static final Set<String> HELP_FROM_SOURCE = Set.of("test", "test-repeat", "shardline-cds",
            "shardline-run-class");

    private final Map<String, String> helpTexts = new HashMap<>();

    @Test
    void everyDocumentedCommandMatchesTheProduct() throws IOException {
        List<Command> commands = commands();
        assertThat(commands).as("commands found in the docs").hasSizeGreaterThan(30);
        List<String> problems = new ArrayList<>();
        for (Command c : commands) {
            for (String part : c.text().split("&&|\\|\\||;|\\|")) {
                check(part.trim(), problems, c);
            }
        }
        assertThat(problems).as("documented commands that do not match the product").isEmpty();
    }

    private void check(String command, List<String> problems, Command where) {
        Matcher script = SCRIPT.matcher(command);
        if (script.find() && (command.startsWith("bin/") || command.contains("/bin/"))) {
            String name = script.group(1);
            Path file = ROOT.resolve("bin").resolve(name);
            if (!Files.isExecutable(file)) {
                problems.add(where + ": no script bin/" + name);
                return;
            }
            String help = help(name);
            Matcher option = OPTION.matcher(script.group(2));
            while (option.find()) {
                if (!help.contains(option.group(1))) {
                    problems.add(where + ": bin/" + name + " has no option " + option.group(1));
                }
            }
        } else if (command.startsWith("mvn ")) {
            checkMaven(command, problems, where);
        } else if (command.startsWith("java ")) {
            checkJava(command, problems, where);
        }
    }

    private static void checkMaven(String command, List<String> problems, Command where) {
        Matcher pl = Pattern.compile("-pl (\\S+)").matcher(command);
        if (pl.find()) {
            for (String module : pl.group(1).split(",")) {
                if (!module.contains("<") && !module.contains("order-audit")
                        && !Files.isRegularFile(ROOT.resolve(module).resolve("pom.xml"))) {
                    problems.add(where + ": no Maven module " + module);
                }
            }
        }
        Matcher tests = Pattern.compile("-Dtest='?([A-Za-z0-9*,#]+)'?").matcher(command);
        if (tests.find()) {
            for (String pattern : tests.group(1).split(",")) {
                String glob = pattern.replaceAll("#.*", "");
                if (testClasses().stream().noneMatch(n -> n.matches(glob.replace("*", ".*")))) {
                    problems.add(where + ": no test class matches " + pattern);
                }
            }
        }
    }

    private static void checkJava(String command, List<String> problems, Command where) {
        Matcher main = Pattern.compile("\\s(io\\.shardline\\.[A-Za-z0-9.]+)").matcher(command);
        while (main.find()) {
            String name = main.group(1);
            if (!sourceExists(name) && !packageExists(name)) {
                problems.add(where + ": no class or package " + name);
            }
        }
        Matcher jmh = Pattern.compile("-jar benchmarks/target/benchmarks\\.jar ([A-Z][A-Za-z0-9]+)").matcher(command);
        if (jmh.find() && sourceFiles().stream().noneMatch(p -> p.endsWith(jmh.group(1) + ".java"))) {
            problems.add(where + ": no benchmark " + jmh.group(1));
        }
    }

    private String help(String name) {
        return helpTexts.computeIfAbsent(name, n -> {
            if (HELP_FROM_SOURCE.contains(n)) {
                return read(ROOT.resolve("bin").resolve(n));
            }
            Path script = ROOT.resolve("bin").resolve(n); // the scripts run from a built source tree too
            try {
                Process p = new ProcessBuilder(script.toString(), "--help").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("bin/%s --help finished", n).isTrue();
                assertThat(p.exitValue()).as("bin/%s --help exit code\n%s", n, out).isZero();
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    /** The commands of the README, docs/ and the plugin template's README, with file and line. */
    private static List<Command> commands() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"),
                ROOT.resolve("plugins-examples/template/README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Command> commands = new ArrayList<>();
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            boolean fenced = false;
            StringBuilder continued = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String where = ROOT.relativize(doc) + ":" + (i + 1);
                if (!fenced && FENCE.matcher(line).matches()) {
                    fenced = true;
                } else if (fenced && line.startsWith("```")) {
                    fenced = false;
                } else if (fenced) {
                    String code = line.replaceAll("\\s+#.*$", "").strip();
                    if (code.isEmpty() || code.startsWith("#")) {
                        continue;
                    }
                    if (code.endsWith("\\")) {
                        continued.append(code, 0, code.length() - 1).append(' ');
                        continue;
                    }
                    commands.add(new Command(where, continued + code));
                    continued.setLength(0);
                } else {
                    Matcher m = INLINE.matcher(line);
                    while (m.find()) {
                        commands.add(new Command(where, m.group(1)));
                    }
                }
            }
        }
        return commands;
    }

    private static List<String> testClasses() {
        return sourceFiles().stream().map(p -> p.getFileName().toString().replace(".java", ""))
                .filter(n -> n.endsWith("Test") || n.endsWith("Tests")).toList();
    }

    private static List<Path> cachedSources;

    private static synchronized List<Path> sourceFiles() {
        if (cachedSources == null) {
            try (Stream<Path> walk = Files.walk(ROOT)) {
                cachedSources = walk.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/")
                        && !p.toString().contains("/target/")).collect(Collectors.toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cachedSources;
    }

    private static boolean sourceExists(String className) {
        String suffix = "/" + className.replace('.', '/') + ".java";
        return sourceFiles().stream().anyMatch(p -> p.toString().endsWith(suffix));
    }

    private static boolean packageExists(String packageName) {
        String part = "/" + packageName.replace('.', '/') + "/";
        return sourceFiles().stream().anyMatch(p -> p.toString().contains(part));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Command(String where, String text) {
        @Override
        public String toString() {
            return where + " `" + text + "`";
        }
    }
}
