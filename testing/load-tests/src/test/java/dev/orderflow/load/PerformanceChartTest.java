package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerformanceChartTest {

    @Test
    void drawsEveryRunOfTheCsvIntoAPng(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("runs.csv");
        Files.writeString(csv, LoadResult.CSV_HEADER + "\n"
                + new LoadResult("warm-up", 8, 0, 500, 500, 0, 50, 300, 500, 800, 900, 20, 90, 10, 8, 2000, 4000, 1.2, 0)
                        .toCsv() + "\n"
                + new LoadResult("n=2000 c=16", 16, 0, 2000, 2000, 0, 90, 400, 700, 900, 1200, 30, 120, 10, 8, 2000,
                        4000, 1.5, 0).toCsv() + "\n");
        Path png = dir.resolve("chart.png");

        PerformanceChart.main(new String[] { csv.toString(), png.toString() });

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(PerformanceChart.WIDTH);
        assertThat(image.getHeight()).isEqualTo(PerformanceChart.HEIGHT);
        assertThat(PerformanceChart.read(csv)).extracting(LoadResult::label).containsExactly("warm-up", "n=2000 c=16");
        // bars were drawn: the first series' colour appears in the left panel
        boolean hasBar = false;
        for (int x = 0; x < PerformanceChart.WIDTH / 2 && !hasBar; x++) {
            for (int y = 0; y < PerformanceChart.HEIGHT && !hasBar; y++) {
                hasBar = (image.getRGB(x, y) & 0xffffff) == 0x1f77b4;
            }
        }
        assertThat(hasBar).isTrue();
    }

    @Test
    void closedLoopRunsGoLeftAndOpenLoopRunsRight() {
        BufferedImage image = PerformanceChart.draw(List.of(
                new LoadResult("closed", 32, 0, 5000, 5000, 0, 500, 900, 1200, 1500, 1600, 40, 100, 0.3, 6, 12000,
                        15000, 5, 0),
                new LoadResult("open 250/s", 64, 250, 15000, 15000, 0, 250, 120, 150, 180, 250, 3, 20, 1.4, 6, 12000,
                        15000, 5, 0)));

        // the closed loop's throughput bar (first series) on the left, the open loop's p99 (third) on the right only
        assertThat(hasColour(image, 0, PerformanceChart.WIDTH / 2, 0x1f77b4)).isTrue();
        assertThat(hasColour(image, 0, PerformanceChart.WIDTH / 2, 0x2ca02c)).isFalse();
        assertThat(hasColour(image, PerformanceChart.WIDTH / 2, PerformanceChart.WIDTH, 0x2ca02c)).isTrue();
    }

    private static boolean hasColour(BufferedImage image, int fromX, int toX, int rgb) {
        for (int x = fromX; x < toX; x++) {
            for (int y = 0; y < PerformanceChart.HEIGHT; y++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void niceAxisCeilings() {
        assertThat(PerformanceChart.niceCeiling(87)).isEqualTo(100);
        assertThat(PerformanceChart.niceCeiling(130)).isEqualTo(200);
        assertThat(PerformanceChart.niceCeiling(420)).isEqualTo(500);
        assertThat(List.of(PerformanceChart.niceCeiling(0))).containsExactly(1.0);
    }
}
