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
    void niceAxisCeilings() {
        assertThat(PerformanceChart.niceCeiling(87)).isEqualTo(100);
        assertThat(PerformanceChart.niceCeiling(130)).isEqualTo(200);
        assertThat(PerformanceChart.niceCeiling(420)).isEqualTo(500);
        assertThat(List.of(PerformanceChart.niceCeiling(0))).containsExactly(1.0);
    }
}
