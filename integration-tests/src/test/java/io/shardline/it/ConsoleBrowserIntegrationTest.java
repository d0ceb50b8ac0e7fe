package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The web console (docs/console.md) in a real browser, headless Chromium, against two worker JVMs from the
 * built distribution and a producer: a wrong token is refused at sign-in; with the right one the cluster view
 * lists both workers; the listener view shows every shard's owner as the owner hash in Redis has it; a shard
 * paused from its row builds up lag and sorting by lag puts it first; pausing the listener (confirmed in the
 * dialog) shows PAUSED and records/s falling to 0, resuming brings both back; groups and streams show the
 * group's epochs and the stream's shard count. Screenshots of every view go to target/console-screenshots/
 * (docs/images/ has copies of them).
 *
 * <p>Tagged {@code integration}, part of the default build. Run it alone with {@code mvn -B -ntp verify -pl
 * integration-tests -am -Dtest=ConsoleBrowserIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ConsoleBrowserIntegrationTest {

    private static final int SHARDS = 4;
    private static final int HEARTBEAT_MS = 500;
    private static final String TOKEN = "it-console-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    /** How long the page may take to show a change: a few console refreshes and history samples, on a busy box. */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ItFleet fleet;
    private StreamProducer producer;
    private HeadlessChromium browser;

    @AfterEach
    void stopAll() {
        if (browser != null) {
            browser.close();
        }
        if (producer != null) {
            producer.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void operatorSeesAndActsThroughTheConsole(RedisServer redis) throws Exception {
        fleet = ItFleet.create("console");
        List<Integer> ports = FreePorts.take(4);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=1", "assignor=cooperative-sticky", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("redis.url", redis.uri());
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", Integer.toString(HEARTBEAT_MS));
        common.put("rest.auth.token", TOKEN);
        WorkerProcess w0 = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(2)));
        w0.await("joined cluster", JOIN);
        WorkerProcess w1 = fleet.start("w1", ItFleet.withPorts(common, ports.get(1), ports.get(3)));
        w1.await("joined cluster", JOIN);
        ClusterProbe probe = new ClusterProbe(redis);
        probe.awaitOwners("orders", SHARDS, o -> o.values().stream().map(ClusterProbe::workerOf)
                .collect(Collectors.toSet()).equals(Set.of("w0", "w1")), SETTLE, "orders split over w0 and w1");
        producer = StreamProducer.start(redis, "orders", SHARDS, 5);

        browser = HeadlessChromium.start(1400, 1250);
        browser.driver.get("http://127.0.0.1:" + ports.get(3) + "/ui/");

        // A wrong token is refused and nothing but the sign-in form is shown.
        signIn("not-the-token");
        String refused = browser.await(SETTLE, "sign-in refused", d -> text("#signin-error").isEmpty() ? null
                : text("#signin-error"));
        assertThat(refused).contains("401");
        assertThat(find("#view").isDisplayed()).isFalse();
        assertThat(sessionToken()).isNull();
        browser.screenshot("signin");

        // The right token: the cluster view lists both workers, w0 the leader.
        signIn(TOKEN);
        browser.await(SETTLE, "both workers listed", d -> rows("#workers").size() == 2);
        assertThat(sessionToken()).isEqualTo(TOKEN);
        assertThat(browser.driver.manage().getCookies()).isEmpty();
        assertThat(text("#leader")).isEqualTo("w0");
        assertThat(text("#workers tr[data-worker='w1'] td.version")).isNotBlank().isNotEqualTo("—");
        browser.screenshot("cluster");

        open("#/listeners");
        browser.await(SETTLE, "listener orders listed", d -> !rows("#listeners").isEmpty());
        browser.screenshot("listeners");

        // The listener view: every shard's owner, as Redis has it; records are being handled.
        open("#/listeners/orders");
        Map<Integer, ClusterProbe.Owner> owners = probe.owners("orders", SHARDS);
        browser.await(SETTLE, "every shard's owner shown as in Redis " + owners, d -> shownOwners().equals(
                owners.entrySet().stream().collect(Collectors.toMap(e -> e.getKey(), e -> e.getValue().member(),
                        (a, b) -> a, TreeMap::new))));
        browser.await(SETTLE, "records/s above 0", d -> rate() > 0);

        // Pause shard orders:2 from its row: its lag grows, and sorting by lag puts it first.
        act("#shards tr[data-shard='orders:2'] button[data-action='pause-shard']");
        browser.await(SETTLE, "orders:2 PAUSED", d -> text("#shards tr[data-shard='orders:2'] td.state").equals("PAUSED"));
        browser.await(SETTLE, "lag on orders:2", d -> lagOf("orders:2") > 20);
        browser.await(SETTLE, "lag heading clicked", d -> (Boolean) browser.driver.executeScript(
                "const h = document.querySelector(arguments[0]); if (!h) { return false; } h.click(); return true;",
                "#shards th[data-sort='lag']"));
        browser.await(SETTLE, "shards sorted by lag, orders:2 first", d -> {
            List<Long> lags = lags();
            return lags.size() == SHARDS && firstShardRow().equals("orders:2")
                    && lags.equals(lags.stream().sorted((a, b) -> Long.compare(b, a)).toList());
        });
        assertThat(text("#shards th[data-sort='lag']")).endsWith("▼");
        browser.screenshot("listener");
        act("#shards tr[data-shard='orders:2'] button[data-action='resume-shard']");
        browser.await(SETTLE, "orders:2 running again", d -> text("#shards tr[data-shard='orders:2'] td.state")
                .equals("RUNNING"));

        // Pause the listener (confirmed in the dialog): PAUSED, and records/s falls to 0; resume brings it back.
        act("#action-pause");
        browser.await(SETTLE, "listener PAUSED", d -> text("#listener-state").equals("PAUSED"));
        browser.await(SETTLE, "records/s at 0 while paused", d -> rate() == 0);
        browser.screenshot("listener-paused");
        act("#action-resume");
        browser.await(SETTLE, "listener RUNNING again", d -> text("#listener-state").equals("RUNNING"));
        browser.await(SETTLE, "records/s above 0 after resume", d -> rate() > 0);

        // Groups: epochs, target against current assignment, the audit trail.
        open("#/groups/orders");
        browser.await(SETTLE, "group orders with two members and an audit trail", d -> rows("#assignment").size() == 2
                && !browser.driver.findElements(By.cssSelector("#audit li")).isEmpty());
        assertThat(Long.parseLong(text("#group-epoch"))).isPositive();
        browser.screenshot("groups");

        // Streams: the shard count.
        open("#/streams");
        browser.await(SETTLE, "stream orders listed", d -> !rows("#streams").isEmpty());
        assertThat(text("#streams tr[data-stream='orders'] td.shards")).isEqualTo(Integer.toString(SHARDS));
        browser.screenshot("streams");

        long produced = producer.stop();
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);
        System.out.println("FIGURE console_it_records_produced=" + produced);
    }

    private void signIn(String token) {
        WebElement field = browser.await(SETTLE, "sign-in form", d -> {
            WebElement f = find("#token");
            return f.isDisplayed() ? f : null;
        });
        field.clear();
        field.sendKeys(token);
        find("#signin").click();
    }

    private void open(String fragment) {
        browser.driver.executeScript("location.hash = arguments[0]", fragment);
    }

    /**
     * Clicks a button and confirms in the dialog. The click is one script call: the view is redrawn every few
     * seconds, and an element found in one call may be gone by the next.
     */
    private void act(String selector) {
        browser.await(SETTLE, "button " + selector, d -> (Boolean) browser.driver.executeScript(
                "const b = document.querySelector(arguments[0]); if (!b) { return false; } b.click(); return true;",
                selector));
        browser.await(SETTLE, "confirmation dialog", d -> find("#confirm-ok").isDisplayed());
        find("#confirm-ok").click();
    }

    private WebElement find(String css) {
        return browser.driver.findElement(By.cssSelector(css));
    }

    /** The text of the first element matching {@code css}, "" when none (one script call, see {@link #act}). */
    private String text(String css) {
        Object text = browser.driver.executeScript("const e = document.querySelector(arguments[0]);"
                + " return e ? e.textContent : '';", css);
        return String.valueOf(text).trim();
    }

    private String firstShardRow() {
        return String.valueOf(browser.driver.executeScript("const r = document.querySelector('#shards tbody tr');"
                + " return r ? r.dataset.shard : '';"));
    }

    private List<WebElement> rows(String table) {
        return browser.driver.findElements(By.cssSelector(table + " tbody tr"));
    }

    private String sessionToken() {
        return (String) browser.driver.executeScript("return sessionStorage.getItem('shardline.token')");
    }

    private double rate() {
        String shown = text("#records-rate");
        return shown.isEmpty() || shown.equals("—") ? -1 : Double.parseDouble(shown);
    }

    private long lagOf(String shard) {
        String shown = text("#shards tr[data-shard='" + shard + "'] td.lag");
        return shown.isEmpty() || shown.equals("—") ? -1 : Long.parseLong(shown);
    }

    /** The lag column in row order, read in one script call (the table is redrawn every few seconds). */
    @SuppressWarnings("unchecked")
    private List<Long> lags() {
        List<Object> cells = (List<Object>) browser.driver.executeScript("return Array.from(document.querySelectorAll("
                + "'#shards tbody td.lag')).map(td => td.textContent)");
        return cells.stream().map(c -> c.equals("—") ? -1L : Long.parseLong((String) c)).toList();
    }

    /** Shard index to the owner shown in its row. */
    @SuppressWarnings("unchecked")
    private Map<Integer, String> shownOwners() {
        List<List<Object>> cells = (List<List<Object>>) browser.driver.executeScript("return Array.from("
                + "document.querySelectorAll('#shards tbody tr')).map(tr => [tr.querySelector('td.shard').textContent, "
                + "tr.querySelector('td.owner').textContent])");
        Map<Integer, String> out = new TreeMap<>();
        cells.forEach(c -> out.put(Integer.parseInt((String) c.get(0)), (String) c.get(1)));
        return out;
    }
}
