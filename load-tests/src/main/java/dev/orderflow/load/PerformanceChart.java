package dev.orderflow.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import javax.imageio.ImageIO;

/**
 * Draws the chart of {@code docs/performance.md} from a results CSV written by {@link LoadRun}:
 * left, per run, the completed orders/s next to what the MariaDB and broker ceilings allow; right,
 * the server-side end-to-end latency p50/p90/p99. Plain Java2D, no tool to install.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp "load-tests/target/classes:$(cat load-tests/target/classpath.txt)" \
 *      dev.orderflow.load.PerformanceChart docs/performance-runs.csv docs/performance.png
 * </pre>
 */
public final class PerformanceChart {

    static final int WIDTH = 1200;
    static final int HEIGHT = 760;
    private static final Color[] SERIES = { new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c) };

    private PerformanceChart() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: PerformanceChart <results.csv> <chart.png>");
            System.exit(2);
        }
        List<LoadResult> runs = read(Path.of(args[0]));
        ImageIO.write(draw(runs), "png", Path.of(args[1]).toFile());
        System.out.println("chart of " + runs.size() + " runs written to " + args[1]);
    }

    static List<LoadResult> read(Path csv) throws IOException {
        return Files.readAllLines(csv).stream().filter(line -> !line.isBlank() && !line.startsWith("label,"))
                .map(LoadResult::fromCsv).toList();
    }

    static BufferedImage draw(List<LoadResult> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("No runs to draw");
        }
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        panel(g, runs, 0, "Completed orders/s vs what the ceilings allow",
                List.of("suite", "MariaDB bound", "broker bound"),
                List.of(LoadResult::throughput, LoadResult::dbBoundOrdersPerSecond, LoadResult::brokerBoundOrdersPerSecond),
                "orders/s");
        panel(g, runs, WIDTH / 2, "Server-side end-to-end latency (completedAt - createdAt)",
                List.of("p50", "p90", "p99"),
                List.of(r -> r.e2eP50Ms(), r -> r.e2eP90Ms(), r -> r.e2eP99Ms()), "ms");
        g.dispose();
        return image;
    }

    private static void panel(Graphics2D g, List<LoadResult> runs, int left, String title, List<String> names,
            List<ToDoubleFunction<LoadResult>> series, String unit) {
        int x0 = left + 70;
        // Room below the axis for run labels written at a slant (many runs side by side).
        int y0 = HEIGHT - 270;
        int plotWidth = WIDTH / 2 - 100;
        int plotHeight = HEIGHT - 350;
        double max = 0;
        for (LoadResult run : runs) {
            for (ToDoubleFunction<LoadResult> s : series) {
                double v = s.applyAsDouble(run);
                max = Double.isFinite(v) ? Math.max(max, v) : max;
            }
        }
        max = niceCeiling(max);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left + 20, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setStroke(new BasicStroke(1));
        for (int tick = 0; tick <= 5; tick++) {
            int y = y0 - tick * plotHeight / 5;
            g.setColor(new Color(0xdddddd));
            g.drawLine(x0, y, x0 + plotWidth, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%.0f", max * tick / 5), left + 10, y + 4);
        }
        g.drawString(unit, left + 10, y0 - plotHeight - 12);
        int groupWidth = plotWidth / runs.size();
        int barWidth = Math.max(4, (groupWidth - 20) / series.size());
        for (int r = 0; r < runs.size(); r++) {
            LoadResult run = runs.get(r);
            int gx = x0 + r * groupWidth + 10;
            for (int s = 0; s < series.size(); s++) {
                double v = series.get(s).applyAsDouble(run);
                if (!Double.isFinite(v)) {
                    continue;
                }
                int h = (int) Math.round(v / max * plotHeight);
                g.setColor(SERIES[s % SERIES.length]);
                g.fillRect(gx + s * barWidth, y0 - h, barWidth - 2, h);
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 9));
                g.drawString(String.format(Locale.ROOT, "%.0f", v), gx + s * barWidth, y0 - h - 3);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            }
            g.setColor(Color.BLACK);
            AffineTransform unrotated = g.getTransform();
            g.rotate(Math.toRadians(50), gx + 4, y0 + 12);
            g.drawString(String.format(Locale.ROOT, "%s (load %.1f)", run.label(), run.loadAverage()), gx + 4, y0 + 12);
            g.setTransform(unrotated);
        }
        g.drawLine(x0, y0, x0 + plotWidth, y0);
        for (int s = 0; s < names.size(); s++) {
            int lx = left + 70 + s * 150;
            g.setColor(SERIES[s % SERIES.length]);
            g.fillRect(lx, HEIGHT - 40, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(names.get(s), lx + 20, HEIGHT - 28);
        }
    }

    /** The axis top: the first of 1, 2, 5 × 10^k at or above {@code value}. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] { 1, 2, 5, 10 }) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
