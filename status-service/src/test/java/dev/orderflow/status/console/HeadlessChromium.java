package dev.orderflow.status.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} in headless mode, driven by Selenium through {@code /usr/bin/chromedriver}
 * (no driver download), with a profile of its own that {@link #close()} deletes.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private final Path profile;
    private final WebDriver driver;

    private HeadlessChromium(Path profile, WebDriver driver) {
        this.profile = profile;
        this.driver = driver;
    }

    static HeadlessChromium start() throws IOException {
        // A missing browser is a failure, never a skip: the prerequisite is in the README and .ci/run.
        assertThat(new File(CHROMIUM)).as("%s missing: apt-get install -y chromium chromium-driver", CHROMIUM).isExecutable();
        assertThat(new File(CHROMEDRIVER)).as("%s missing: apt-get install -y chromium chromium-driver", CHROMEDRIVER)
                .isExecutable();
        Path profile = Files.createTempDirectory("orderflow-dashboard-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        return new HeadlessChromium(profile, new ChromeDriver(service, options));
    }

    WebDriver driver() {
        return driver;
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
