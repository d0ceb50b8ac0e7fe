package io.shardline.runtime.cli;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.runtime.config.Version;
import io.shardline.runtime.plugin.AssignorPlugins;
import io.shardline.runtime.plugin.PluginException;
import io.shardline.runtime.plugin.Plugins;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point behind {@code bin/assign}: runs an assignor on a problem read as JSON and prints the assignment
 * as JSON ({@code docs/assignment-problem.md}). It finds the assignor through {@link AssignorPlugins} (built-ins and discovered plugins only), as
 * the group coordinator does, so the answer is the one a group leader would compute.
 *
 * <p>Exit codes: 0 done; 2 bad input, unknown assignor or bad option, with one line on standard error that
 * names the offending field; 1 the output could not be written or the assignor failed. Never a stack trace.
 */
@Command(name = "assign",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        description = {"Runs an assignor on a problem read as JSON and prints the assignment as JSON.",
            "NAME is range, round-robin, sticky, cooperative-sticky, or the name() or class name of an assignor "
                    + "plugin found on the class path or --plugin-path."})
public final class Assign implements Callable<Integer> {

    /** Exit code for bad input, an unknown assignor or a bad option. */
    public static final int BAD_INPUT = 2;
    /** Exit code when the output cannot be written or the assignor fails. */
    public static final int FAILED = 1;

    @Option(names = "--assignor", required = true, paramLabel = "NAME", description = "The assignor to run.")
    private String assignorName;

    @Option(names = "--plugin-path", paramLabel = "DIR", split = ",",
            description = "Plugin locations (folders of plugin jars or folders, or jars), as the worker's plugin.path; "
                    + "repeatable or comma-separated.")
    private List<Path> pluginPath = new ArrayList<>();

    @Option(names = "--input", paramLabel = "FILE", description = "The problem (JSON); default: standard input.")
    private Path input;

    @Option(names = "--output", paramLabel = "FILE", description = "Where to write the assignment; default: standard output.")
    private Path output;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Compute the assignment N times, printing elapsed_ms=<float> per run on standard error.")
    private int repeat;

    private final InputStream stdin;
    private final PrintStream stdout;
    private final PrintStream stderr;

    /** A command on the process's standard streams. */
    public Assign() {
        this(System.in, System.out, System.err);
    }

    /** A command on the given streams (tests). */
    public Assign(InputStream stdin, PrintStream stdout, PrintStream stderr) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The picocli command line for {@code command}, with one-line option errors (exit code 2). */
    public static CommandLine commandLine(Assign command) {
        CommandLine cmd = new CommandLine(command);
        cmd.setOut(new PrintWriter(new OutputStreamWriter(command.stdout, StandardCharsets.UTF_8), true));
        cmd.setErr(new PrintWriter(new OutputStreamWriter(command.stderr, StandardCharsets.UTF_8), true));
        cmd.setParameterExceptionHandler((ex, args) -> {
            command.stderr.println(ex.getMessage() + " (see --help)");
            return BAD_INPUT;
        });
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            command.stderr.println("assign failed: " + ex);
            return FAILED;
        });
        return cmd;
    }

    @Override
    public Integer call() {
        if (repeat < 1) {
            stderr.println("--repeat: must be >= 1, was " + repeat);
            return BAD_INPUT;
        }
        for (Path entry : pluginPath) {
            if (!Files.exists(entry)) {
                stderr.println("--plugin-path: no such file or folder: " + entry);
                return BAD_INPUT;
            }
        }
        try (Plugins plugins = Plugins.load(pluginPath, Assign.class.getClassLoader())) {
            Assignor assignor;
            try {
                assignor = new AssignorPlugins(plugins).resolve(assignorName);
            } catch (PluginException e) {
                stderr.println("--assignor: " + e.getMessage());
                return BAD_INPUT;
            }
            return run(assignor);
        }
    }

    private int run(Assignor assignor) {
        AssignmentProblemReader.Problem problem;
        try {
            problem = new AssignmentProblemReader().read(readInput());
        } catch (BadInputException e) {
            stderr.println(e.getMessage());
            return BAD_INPUT;
        }
        GroupAssignment result = null;
        for (int run = 0; run < repeat; run++) {
            long start = System.nanoTime();
            try {
                result = assignor.assign(problem.group(), problem.shards());
            } catch (IllegalArgumentException e) {
                stderr.println("assignor '" + assignorName + "' rejected the input: " + e.getMessage());
                return BAD_INPUT;
            } catch (RuntimeException e) {
                stderr.println("assignor '" + assignorName + "' failed: " + e);
                return FAILED;
            }
            long elapsed = System.nanoTime() - start;
            stderr.println(String.format(Locale.ROOT, "elapsed_ms=%.3f", elapsed / 1e6));
        }
        return writeOutput(result);
    }

    private byte[] readInput() throws BadInputException {
        try {
            return input == null ? stdin.readAllBytes() : Files.readAllBytes(input);
        } catch (NoSuchFileException e) {
            throw BadInputException.at("--input", "no such file: " + input);
        } catch (IOException e) {
            throw BadInputException.at("--input", "cannot read " + (input == null ? "standard input" : input)
                    + ": " + e.getMessage());
        }
    }

    private int writeOutput(GroupAssignment result) {
        try {
            if (output == null) {
                Writer w = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), 1 << 16);
                new AssignmentJsonWriter().write(result, w);
                w.flush();
            } else {
                try (OutputStream os = Files.newOutputStream(output);
                     Writer w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16)) {
                    new AssignmentJsonWriter().write(result, w);
                }
            }
            return 0;
        } catch (IOException e) {
            stderr.println("--output: cannot write " + (output == null ? "standard output" : output) + ": " + e);
            return FAILED;
        }
    }

    /** Runs the command and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine(new Assign()).execute(args));
    }
}
