package dev.orderflow.status.console;

import java.util.List;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * What the dashboard's uPlot charts draw, read from the page's chart objects ({@code window.dashboardCharts},
 * keyed by the chart's container id): uPlot draws on a canvas, so lines, axis labels and tick labels are not
 * elements to find; the legend is (its {@code .u-legend} table).
 */
final class DashboardCharts {

    private DashboardCharts() {
    }

    /** The labels of the chart's lines that have at least one point. */
    @SuppressWarnings("unchecked")
    static List<String> linesWithPoints(WebDriver browser, String chart) {
        return (List<String>) script(browser, "const p = window.dashboardCharts[arguments[0]].plot;"
                + " return p.series.slice(1).filter((s, i) => s.show && p.data[i + 1].some((v) => v != null))"
                + ".map((s) => s.label);", chart);
    }

    /** The labels of the chart's axes, x first ("time (UTC)", then the y axis with its unit). */
    @SuppressWarnings("unchecked")
    static List<String> axisLabels(WebDriver browser, String chart) {
        return (List<String>) script(browser, "return window.dashboardCharts[arguments[0]].plot.axes.map((a) => a.label);",
                chart);
    }

    /** The tick labels drawn on the x axis (the times). */
    @SuppressWarnings("unchecked")
    static List<String> timeTicks(WebDriver browser, String chart) {
        return (List<String>) script(browser, "return (window.dashboardCharts[arguments[0]].plot.axes[0]._values || [])"
                + ".map(String);", chart);
    }

    private static Object script(WebDriver browser, String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }
}
