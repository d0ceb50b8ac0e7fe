package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven by its own chromedriver ({@code /usr/bin/chromedriver}, or
 * {@code CHROMEDRIVER_BIN}; {@code bin/test} installs both, see bin/lib/ensure-browser.sh). The browser gets a
 * fresh profile directory under {@code target/} and no background networking, sync, component updates or
 * first-run page, so it connects only to the pages a test opens. Screenshots go to
 * {@code target/console-screenshots/}. Used from the test thread only.
 */
final class HeadlessChromium implements AutoCloseable {

    /** Where screenshots are written. */
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    final ChromeDriver driver;
    private final ChromeDriverService service;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver driver) {
        this.service = service;
        this.driver = driver;
    }

    /** Starts chromedriver and a headless browser of {@code width} x {@code height} pixels. */
    static HeadlessChromium start(int width, int height) throws IOException {
        File driverBin = new File(System.getenv().getOrDefault("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
        File browserBin = new File(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
        assertThat(driverBin).as("chromedriver: install chromium and chromium-driver (bin/test does) or set "
                + "CHROMEDRIVER_BIN").canRead();
        assertThat(browserBin).as("chromium: install chromium (bin/test does) or set CHROMIUM_BIN").canRead();
        Path profile = Files.createTempDirectory(Files.createDirectories(Path.of("target").toAbsolutePath()),
                "chromium-profile-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browserBin);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driverBin)
                .usingAnyFreePort().withLogFile(profile.resolve("chromedriver.log").toFile()).build();
        service.start();
        return new HeadlessChromium(service, new ChromeDriver(service, options));
    }

    /** Waits up to {@code timeout} for {@code condition} to give a non-null, non-false value. */
    <T> T await(Duration timeout, String what, Function<WebDriver, T> condition) {
        // The console redraws its view every few seconds: an element read as it is replaced is read again.
        return new WebDriverWait(driver, timeout, Duration.ofMillis(200)).withMessage(what)
                .ignoring(StaleElementReferenceException.class).until(condition);
    }

    /** Saves the page, scrolled to its top, as {@code target/console-screenshots/<name>.png}. */
    Path screenshot(String name) {
        driver.executeScript("window.scrollTo(0, 0)");
        try {
            Files.createDirectories(SCREENSHOTS);
            Path out = SCREENSHOTS.resolve(name + ".png");
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), out, StandardCopyOption.REPLACE_EXISTING);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
