package io.shardline.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bin/shardline redis-acl}, run in-process through the top-level command. */
class RedisAclCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Shardline.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void printsOneSetUserLineWithTheKeysAndExactlyTheCommands() {
        assertEquals(0, run("redis-acl", "--stream", "orders", "--stream", "payments", "--cluster", "prod",
                "--dead-letter", "orders.dlq"));
        String line = out.toString().strip();
        assertThat(line).startsWith("ACL SETUSER shardline on resetkeys ~{shardline:prod}* ~{orders:* ~{payments:* "
                + "~orders.dlq resetchannels -@all +ping +info +client|id +client|unblock ")
                .contains(" +fcall ", " +function|load ", " +xreadgroup ", " +xadd ")
                .doesNotContain("@write", "@scripting", "xackdel", "\n");
    }

    @Test
    void xackdelAndOddKeysAreQuotedForRedisCli() {
        assertEquals(0, run("redis-acl", "--stream", "orders", "--dead-letter", "dead letters*", "--xackdel",
                "--user", "w1"));
        assertThat(out.toString().strip()).startsWith("ACL SETUSER w1 on resetkeys ~{shardline:shardline}* "
                + "~{orders:* \"~dead letters\\\\*\" ").endsWith(" +xackdel");
    }

    @Test
    void aStreamIsRequiredAndBadNamesAreRefused() {
        assertEquals(2, run("redis-acl"));
        assertThat(err.toString()).contains("Missing required option: '--stream=NAME'");
        assertEquals(2, run("redis-acl", "--stream", "a{b}"));
        assertThat(err.toString()).contains("stream 'a{b}' must be non-empty, without '{', '}' or '*'");
        assertEquals(2, run());
        assertThat(err.toString()).contains("missing command: give one of redis-acl");
    }
}
