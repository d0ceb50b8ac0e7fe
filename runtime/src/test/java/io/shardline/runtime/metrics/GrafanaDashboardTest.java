package io.shardline.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard shipped in the distribution ({@code dist/src/grafana/shardline-dashboard.json}) asks only
 * for series that {@code /metrics} exports: every Shardline name in every query and variable is a sample name of
 * a registry holding one instance of every catalog metric, and every panel has a query.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("..", "dist", "src", "grafana", "shardline-dashboard.json");
    private static final Pattern NAME = Pattern.compile("\\bshardline_[a-zA-Z0-9_]+");

    @Test
    void everyQueryNamesAnExportedSeries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        Set<String> exported = sampleNames(new DropwizardExporter(DropwizardExporterTest.filled()).text());
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.path("targets")).as("queries of panel '%s'", panel.path("title").asText()).isNotEmpty();
            panel.path("targets").forEach(t -> queries.add(t.path("expr").asText()));
        }
        dashboard.path("templating").path("list").forEach(v -> queries.add(v.path("definition").asText()));
        assertThat(queries).hasSizeGreaterThan(20);
        Set<String> named = new TreeSet<>();
        for (String query : queries) {
            Matcher m = NAME.matcher(query);
            while (m.find()) {
                named.add(m.group());
                assertThat(exported).as("series in query %s", query).contains(m.group());
            }
        }
        // The dashboard covers the catalog's main families.
        assertThat(named).contains("shardline_listener_records_handled_total", "shardline_shard_lag",
                "shardline_listener_records_dead_lettered_total", "shardline_listener_handler_batch_time_seconds_sum",
                "shardline_coordinator_group_rebalances_total");
    }

    private static Set<String> sampleNames(String text) {
        Set<String> out = new TreeSet<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                int end = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
                out.add(line.substring(0, end));
            }
        }
        return out;
    }
}
