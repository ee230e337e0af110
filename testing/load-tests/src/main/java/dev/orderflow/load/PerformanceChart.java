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
 * Draws the chart of {@code docs/performance.md} from a results CSV written by {@link LoadRun} (the
 * Spring Boot reference's runs go in the same columns, ceilings NaN): left, the closed-loop runs
 * (rate 0) by their completed orders/s; right, the open-loop runs (rate above 0) by their server-side
 * end-to-end latency p50/p90/p99, with the 250 ms p99 target as a dashed line. Each bar group is
 * labelled with the run's label, so the CSV's labels are what the reader sees. The ceilings are not
 * drawn: at tens of thousands of orders/s they would flatten every other bar. Plain Java2D, no tool
 * to install.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp "testing/load-tests/target/classes:$(cat testing/load-tests/target/classpath.txt)" \
 *      dev.orderflow.load.PerformanceChart docs/performance-runs.csv docs/performance.png
 * </pre>
 */
public final class PerformanceChart {

    static final int WIDTH = 1200;
    static final int HEIGHT = 760;
    /** The end-to-end p99 the open loop at half the maximum is held to. */
    static final double P99_TARGET_MS = 250;
    private static final Color[] SERIES = { new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c) };
    private static final Color TARGET = new Color(0xd62728);

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
        panel(g, runs.stream().filter(run -> run.rate() <= 0).toList(), 0,
                "Closed loop: completed orders/s", List.of("completed orders/s"),
                List.of(LoadResult::throughput), "orders/s", Double.NaN);
        panel(g, runs.stream().filter(run -> run.rate() > 0).toList(), WIDTH / 2,
                "Open loop: end-to-end latency (completedAt - createdAt)", List.of("p50", "p90", "p99"),
                List.of(r -> r.e2eP50Ms(), r -> r.e2eP90Ms(), r -> r.e2eP99Ms()), "ms", P99_TARGET_MS);
        g.dispose();
        return image;
    }

    /** One panel of bar groups, one group per run; {@code target}: a dashed line at that value, NaN for none. */
    private static void panel(Graphics2D g, List<LoadResult> runs, int left, String title, List<String> names,
            List<ToDoubleFunction<LoadResult>> series, String unit, double target) {
        int x0 = left + 70;
        // Room below the axis for run labels written at a slant.
        int y0 = HEIGHT - 270;
        int plotWidth = WIDTH / 2 - 100;
        int plotHeight = HEIGHT - 350;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left + 20, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        if (runs.isEmpty()) {
            g.drawString("no such runs in the CSV", x0, y0 - plotHeight / 2);
            return;
        }
        double max = Double.isFinite(target) ? target : 0;
        for (LoadResult run : runs) {
            for (ToDoubleFunction<LoadResult> s : series) {
                double v = s.applyAsDouble(run);
                max = Double.isFinite(v) ? Math.max(max, v) : max;
            }
        }
        max = niceCeiling(max);
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
        int barWidth = Math.max(4, Math.min(60, (groupWidth - 20) / series.size()));
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
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                g.drawString(String.format(Locale.ROOT, "%.0f", v), gx + s * barWidth, y0 - h - 3);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            }
            g.setColor(Color.BLACK);
            AffineTransform unrotated = g.getTransform();
            g.rotate(Math.toRadians(50), gx + 4, y0 + 12);
            g.drawString(run.label(), gx + 4, y0 + 12);
            g.setTransform(unrotated);
        }
        g.setColor(Color.BLACK);
        g.drawLine(x0, y0, x0 + plotWidth, y0);
        int lx = left + 70;
        for (int s = 0; s < names.size(); s++, lx += 100) {
            g.setColor(SERIES[s % SERIES.length]);
            g.fillRect(lx, HEIGHT - 40, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(names.get(s), lx + 20, HEIGHT - 28);
        }
        if (Double.isFinite(target)) {
            int y = y0 - (int) Math.round(target / max * plotHeight);
            g.setColor(TARGET);
            g.setStroke(new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 8, 6 }, 0));
            g.drawLine(x0, y, x0 + plotWidth, y);
            g.drawLine(lx, HEIGHT - 33, lx + 30, HEIGHT - 33);
            g.setStroke(new BasicStroke(1));
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "p99 target %.0f %s", target, unit), lx + 36, HEIGHT - 28);
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
