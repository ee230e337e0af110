package dev.orderflow.status.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium} in headless mode, driven by Selenium through {@code /usr/bin/chromedriver}
 * (no driver download), with a profile of its own: a JUnit extension that starts the browser before a
 * test class's {@code @BeforeAll} methods and quits it, deleting the profile, after the class.
 * {@code @RegisterExtension static final HeadlessChromium CHROMIUM = new HeadlessChromium();}
 */
final class HeadlessChromium implements BeforeAllCallback, AfterAllCallback {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private Path profile;
    private WebDriver driver;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        // A missing browser is a failure, never a skip: the prerequisite is in the README and .ci/run.
        assertThat(new File(CHROMIUM)).as("%s missing: apt-get install -y chromium chromium-driver", CHROMIUM).isExecutable();
        assertThat(new File(CHROMEDRIVER)).as("%s missing: apt-get install -y chromium chromium-driver", CHROMEDRIVER)
                .isExecutable();
        profile = Files.createTempDirectory("orderflow-dashboard-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    WebDriver driver() {
        return driver;
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
