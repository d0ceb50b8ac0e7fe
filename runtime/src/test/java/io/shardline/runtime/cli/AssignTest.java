package io.shardline.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code bin/assign} in-process: the JSON contract of docs/assignment-problem.md, exit codes and error lines. */
class AssignTest {

    /** The input example of the spec, without racks. */
    private static final String SPEC_EXAMPLE = """
            {
              "streams": {
                "orders":   { "shards": 6 },
                "payments": { "shards": 3 }
              },
              "members": [
                {
                  "memberId":   "worker-a-m0",
                  "instanceId": null,
                  "rack":       "az1",
                  "subscriptions": ["orders", "payments"],
                  "owned":      { "orders": [0, 1] },
                  "generation": 4
                },
                { "memberId": "worker-b-m0", "subscriptions": ["orders"] }
              ]
            }
            """;

    private static final String SPEC_OUTPUT = """
            {
              "assignment": {
                "worker-a-m0": {"orders": [0, 1, 2], "payments": [0, 1, 2]},
                "worker-b-m0": {"orders": [3, 4, 5]}
              }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void rangeOnTheSpecExampleFromFileToFile() throws IOException {
        Path in = Files.writeString(dir.resolve("problem.json"), SPEC_EXAMPLE);
        Path out = dir.resolve("assignment.json");
        Result r = run("", "--assignor", "range", "--input", in.toString(), "--output", out.toString());
        assertThat(r.code).isZero();
        assertThat(r.stdout).isEmpty();
        assertThat(r.stderr).matches("elapsed_ms=\\d+\\.\\d{3}\\n");
        assertThat(Files.readString(out)).isEqualTo(SPEC_OUTPUT);
    }

    @Test
    void rackAwareRangeOnTheSpecExampleWithRacks() {
        String withRacks = SPEC_EXAMPLE.replace("\"orders\":   { \"shards\": 6 }",
                "\"orders\": { \"shards\": 6, \"racks\": [[\"az1\"], [\"az2\"], [\"az1\",\"az2\"], [], [\"az3\"], [\"az3\"]] }");
        Result r = run(withRacks, "--assignor", "range");
        assertThat(r.code).isZero();
        assertThat(r.stdout).contains("\"worker-a-m0\": {\"orders\": [0, 2, 5], \"payments\": [0, 1, 2]},")
                .contains("\"worker-b-m0\": {\"orders\": [1, 3, 4]}");
    }

    @Test
    void everyMemberAppearsAndStreamsWithNothingAreLeftOut() {
        String problem = """
                {"streams": {"a": {"shards": 2}, "b": {"shards": 0}},
                 "members": [{"memberId": "m2", "subscriptions": []},
                             {"memberId": "m1", "subscriptions": ["a", "b"]},
                             {"memberId": "m3", "subscriptions": ["a"], "instanceId": "static"}]}
                """;
        Result r = run(problem, "--assignor", "round-robin");
        assertThat(r.code).isZero();
        assertThat(r.stdout).isEqualTo("""
                {
                  "assignment": {
                    "m1": {"a": [1]},
                    "m2": {},
                    "m3": {"a": [0]}
                  }
                }
                """);
    }

    @Test
    void emptyGroupGivesAnEmptyAssignment() {
        Result r = run("{\"streams\": {}, \"members\": []}", "--assignor", "range");
        assertThat(r.code).isZero();
        assertThat(r.stdout).isEqualTo("{\n  \"assignment\": {}\n}\n");
    }

    @Test
    void repeatWritesOneElapsedLinePerRun() {
        Result r = run(SPEC_EXAMPLE, "--assignor", "round-robin", "--repeat", "3");
        assertThat(r.code).isZero();
        assertThat(r.stderr.lines()).hasSize(3).allMatch(l -> l.matches("elapsed_ms=\\d+\\.\\d{3}"));
        assertThat(r.stdout).startsWith("{\n  \"assignment\": {");
    }

    static Stream<Arguments> badInputs() {
        String streams = "\"streams\": {\"orders\": {\"shards\": 6}}";
        return Stream.of(
                Arguments.of("{" + streams + ", \"members\": [",
                        "input is not valid JSON at line 1, column 52: Unexpected end-of-input: expected close marker for Array (opened at line 1, column 51)"),
                Arguments.of("{" + streams + ",\n \"members\": [{\"memberId\": \"a\" \"subscriptions\": []}]}",
                        "input is not valid JSON at line 2, column 31: Unexpected character ('\"' (code 34)): was expecting comma to separate Object entries"),
                Arguments.of("", "input is empty: expected a JSON object with \"streams\" and \"members\""),
                Arguments.of("[]", "(root): expected an object with \"streams\" and \"members\", got array []"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": [\"orders\", \"nope\"]}]}",
                        "members[0].subscriptions[1]: unknown stream 'nope' (streams: orders)"),
                Arguments.of("{\"streams\": {\"orders\": {\"shards\": -1}}, \"members\": []}",
                        "streams.orders.shards: shard count must be >= 0, was -1"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": []},"
                                + " {\"memberId\": \"b\", \"subscriptions\": [], \"owned\": {\"orders\": [0, 1, 9]}}]}",
                        "members[1].owned.orders[2]: shard 9 does not exist (orders has 6 shards)"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": [], \"owned\": {\"x\": [0]}}]}",
                        "members[0].owned.x: unknown stream 'x' (streams: orders)"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": []},"
                                + " {\"memberId\": \"a\", \"subscriptions\": []}]}",
                        "members[1].memberId: duplicate member id 'a' (also members[0])"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"instanceId\": \"i\", \"subscriptions\": []},"
                                + " {\"memberId\": \"b\", \"instanceId\": \"i\", \"subscriptions\": []}]}",
                        "members[1].instanceId: duplicate instance id 'i' (also members[0])"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\"}]}",
                        "members[0].subscriptions: missing (required)"),
                Arguments.of("{" + streams + "}", "members: missing (required)"),
                Arguments.of("{\"streams\": {\"orders\": {\"racks\": []}}, \"members\": []}",
                        "streams.orders.shards: missing (required)"),
                Arguments.of("{\"streams\": {\"orders\": {\"shards\": \"6\"}}, \"members\": []}",
                        "streams.orders.shards: expected an integer, got string \"6\""),
                Arguments.of("{\"streams\": {\"orders\": {\"shards\": 2.5}}, \"members\": []}",
                        "streams.orders.shards: expected an integer, got number 2.5"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": 7, \"subscriptions\": []}]}",
                        "members[0].memberId: expected a string, got number 7"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": \"orders\"}]}",
                        "members[0].subscriptions: expected an array of stream names, got string \"orders\""),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscriptions\": [], \"generation\": \"4\"}]}",
                        "members[0].generation: expected an integer, got string \"4\""),
                Arguments.of("{\"streams\": {\"orders\": {\"shards\": 2, \"racks\": [[\"az1\"]]}}, \"members\": []}",
                        "streams.orders.racks: has 1 entries for 2 shards"),
                Arguments.of("{\"streams\": {\"orders\": {\"shards\": 1, \"racks\": [[1]]}}, \"members\": []}",
                        "streams.orders.racks[0][0]: expected a string, got number 1"),
                Arguments.of("{" + streams + ", \"members\": [{\"memberId\": \"a\", \"subscription\": []}]}",
                        "members[0].subscription: unknown field (expected one of generation, instanceId, memberId, owned, rack, subscriptions, weight)"),
                Arguments.of("{\"streams\": {\"a\": {\"shards\": 1}, \"a\": {\"shards\": 2}}, \"members\": []}",
                        "input is not valid JSON at line 1, column 37: Duplicate field 'a'"));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void badInputExitsWithTwoAndOneLineNamingTheField(String input, String expectedLine) {
        Result r = run(input, "--assignor", "range");
        assertThat(r.code).isEqualTo(Assign.BAD_INPUT);
        assertThat(r.stdout).isEmpty();
        assertThat(r.stderr).isEqualTo(expectedLine + "\n");
    }

    @Test
    void missingInputFileIsBadInput() {
        Result r = run("", "--assignor", "range", "--input", dir.resolve("nope.json").toString());
        assertThat(r.code).isEqualTo(2);
        assertThat(r.stderr).isEqualTo("--input: no such file: " + dir.resolve("nope.json") + "\n");
    }

    @Test
    void unknownAssignorNamesItAndTheBuiltIns() {
        Result r = run(SPEC_EXAMPLE, "--assignor", "rnage");
        assertThat(r.code).isEqualTo(2);
        assertThat(r.stderr).startsWith("--assignor: unknown assignor 'rnage': the built-in assignors are range, round-robin")
                .hasLineCount(1);
    }

    @Test
    void aPluginAssignorRunsFromThePluginPathByNameOrClass() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        io.shardline.runtime.plugin.TestPlugins.jar("lowest-member-assignor", plugins);
        for (String name : new String[] {"lowest-member", "fixture.assignor.LowestMemberAssignor"}) {
            Result r = run(SPEC_EXAMPLE, "--assignor", name, "--plugin-path", plugins.toString());
            assertThat(r.code).as(r.stderr).isZero();
            assertThat(r.stdout).contains("\"worker-a-m0\": {\"orders\": [0, 1, 2, 3, 4, 5], \"payments\": [0, 1, 2]}")
                    .contains("\"worker-b-m0\": {}");
        }
        Result without = run(SPEC_EXAMPLE, "--assignor", "lowest-member");
        assertThat(without.code).isEqualTo(2);
        assertThat(without.stderr).startsWith("--assignor: unknown assignor 'lowest-member'").hasLineCount(1);
        Result missingDir = run(SPEC_EXAMPLE, "--assignor", "range", "--plugin-path", dir.resolve("nope").toString());
        assertThat(missingDir.code).isEqualTo(2);
        assertThat(missingDir.stderr).isEqualTo("--plugin-path: no such file or folder: " + dir.resolve("nope") + "\n");
    }

    @Test
    void weightsGiveProportionalShares() {
        String problem = """
                {"streams": {"orders": {"shards": 8}},
                 "members": [{"memberId": "a", "subscriptions": ["orders"], "weight": 3},
                             {"memberId": "b", "subscriptions": ["orders"]}]}
                """;
        Result r = run(problem, "--assignor", "sticky");
        assertThat(r.code).as(r.stderr).isZero();
        assertThat(r.stdout).contains("\"a\": {\"orders\": [0, 2, 4, 5, 6, 7]}").contains("\"b\": {\"orders\": [1, 3]}");
        Result zero = run(problem.replace("\"weight\": 3", "\"weight\": 0"), "--assignor", "sticky");
        assertThat(zero.code).isEqualTo(2);
        assertThat(zero.stderr).isEqualTo("members[0].weight: must be >= 1, was 0\n");
    }

    @Test
    void aClassNoPluginListsIsNeverLoaded() {
        Result r = run(SPEC_EXAMPLE, "--assignor", "javax.swing.JFrame");
        assertThat(r.code).isEqualTo(2);
        assertThat(r.stderr).startsWith("--assignor: unknown assignor 'javax.swing.JFrame'").hasLineCount(1);
    }

    @Test
    void badOptionsExitWithTwoAndOneLine() {
        Result missing = run(SPEC_EXAMPLE);
        assertThat(missing.code).isEqualTo(2);
        assertThat(missing.stderr).contains("--assignor").hasLineCount(1);
        Result zero = run(SPEC_EXAMPLE, "--assignor", "range", "--repeat", "0");
        assertThat(zero.code).isEqualTo(2);
        assertThat(zero.stderr).isEqualTo("--repeat: must be >= 1, was 0\n");
        Result notANumber = run(SPEC_EXAMPLE, "--assignor", "range", "--repeat", "x");
        assertThat(notANumber.code).isEqualTo(2);
        assertThat(notANumber.stderr).contains("--repeat").hasLineCount(1);
    }

    @Test
    void helpExitsWithZero() {
        Result r = run("", "--help");
        assertThat(r.code).isZero();
        assertThat(r.stdout).contains("--assignor=NAME").contains("--repeat=N");
    }

    private static Result run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Assign command = new Assign(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        int code = Assign.commandLine(command).execute(args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int code, String stdout, String stderr) {
    }
}
