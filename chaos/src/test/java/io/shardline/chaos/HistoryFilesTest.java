package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.chaos.verifying.HandlingLine;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run-directory formats: both handling-log formats, torn last lines, both fault-line formats. */
class HistoryFilesTest {

    @TempDir
    Path dir;

    @Test
    void readsBothHandlingFormatsAndSkipsATornLastLineEvenWhenItParses() throws Exception {
        Files.writeString(dir.resolve("w1-chaos-m0.tsv"), ""
                + "chaos\tchaos\t3\t5-0\t41\tw1-chaos-m0\t7\t100\t101\t1\n"
                + "chaos\tchaos\t3\t6-0\t42\tw1-chaos-m0\t7\t200\t201\t1\t4\t102\n"
                + "chaos\tchaos\t3\t7-0\t43\tw1-chaos-m0\t7\t300\t301\t1"); // cut before its batch field

        assertThat(HistoryFiles.handlings(dir)).containsExactly(
                new HandlingLine("chaos", "chaos", 3, "5-0", 41, "w1-chaos-m0", 7, 100, 101, 1),
                new HandlingLine("chaos", "chaos", 3, "6-0", 42, "w1-chaos-m0", 7, 200, 201, 1, 4, 102));
    }

    @Test
    void aMalformedLineInTheMiddleNamesFileAndLine() throws Exception {
        Files.writeString(dir.resolve("w1-chaos-m0.tsv"), "chaos\tchaos\t3\n"
                + "chaos\tchaos\t3\t6-0\t42\tw1-chaos-m0\t7\t200\t201\t1\t4\t102\n");

        assertThatThrownBy(() -> HistoryFiles.handlings(dir))
                .hasMessageContaining("w1-chaos-m0.tsv:1: expected 12 tab-separated fields");
    }

    @Test
    void faultLinesSayWhenTheFaultTookEffectAndOldLinesStillParse() {
        FaultEvent pause = new FaultEvent(FaultKind.PAUSE_WORKER, "w2", 1_000, 5_500, 1_012);

        assertThat(FaultEvent.parse(pause.toLine())).isEqualTo(pause);
        assertThat(FaultEvent.parse("PAUSE_WORKER\tw2\t1000\t5500"))
                .isEqualTo(new FaultEvent(FaultKind.PAUSE_WORKER, "w2", 1_000, 5_500, 5_500));
        assertThatThrownBy(() -> new FaultEvent(FaultKind.PAUSE_WORKER, "w2", 1_000, 5_500, 999))
                .hasMessageContaining("fault takes effect outside [start, end]: 999 not in [1000, 5500]");
    }
}
