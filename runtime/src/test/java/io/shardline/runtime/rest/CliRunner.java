package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.cli.Shardline;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code bin/shardline}'s admin commands run in process against a test's REST server ({@link RestHarness}): each run
 * gets {@code --url} of that server and, unless it is to run without one, {@code --token}; it returns the exit code,
 * stdout and stderr.
 */
final class CliRunner {

    /** One run: exit code, stdout and stderr. */
    record Run(int exit, String out, String err) {
    }

    private final RestHarness rest;
    private final String token;

    /** Commands against {@code rest} with the write token {@code token}. */
    CliRunner(RestHarness rest, String token) {
        this.rest = rest;
        this.token = token;
    }

    /** Runs {@code args} with the token and asserts exit code 0. */
    Run run(String... args) {
        return runExpecting(0, args);
    }

    /** Runs {@code args} with the token and asserts its exit code. */
    Run runExpecting(int exit, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--token", token));
        Run r = withoutToken(all.toArray(String[]::new));
        assertThat(r.exit()).as("shardline %s: %s %s", String.join(" ", args), r.out(), r.err()).isEqualTo(exit);
        return r;
    }

    /** Runs {@code args} without a token. */
    Run withoutToken(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", "http://127.0.0.1:" + rest.port()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Shardline.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }
}
