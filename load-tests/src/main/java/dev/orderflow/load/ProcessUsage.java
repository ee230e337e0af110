package dev.orderflow.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's resident set and CPU time, read from Linux {@code /proc/<pid>/status} and
 * {@code /proc/<pid>/stat}.
 *
 * @param rssKb      VmRSS in KiB
 * @param cpuSeconds user + system CPU time since the process started
 */
public record ProcessUsage(long rssKb, double cpuSeconds) {

    /** {@code sysconf(_SC_CLK_TCK)}: 100 on every Linux the suite runs on (x86-64 and arm64). */
    static final int CLOCK_TICKS_PER_SECOND = 100;

    public static ProcessUsage of(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "status")),
                    Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read /proc/" + pid + " (has the process exited?)", e);
        }
    }

    /** @param status the text of {@code /proc/<pid>/status}; @param stat the line of {@code /proc/<pid>/stat} */
    static ProcessUsage parse(String status, String stat) {
        long rssKb = -1;
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                rssKb = Long.parseLong(line.substring("VmRSS:".length()).trim().split("\\s+")[0]);
            }
        }
        if (rssKb < 0) {
            throw new IllegalArgumentException("No VmRSS line in " + status);
        }
        return new ProcessUsage(rssKb, cpuTicks(stat) / (double) CLOCK_TICKS_PER_SECOND);
    }

    /**
     * User + system CPU time in clock ticks from a {@code /proc/<pid>/stat} or
     * {@code /proc/<pid>/task/<tid>/stat} line (a thread's own time in the latter).
     */
    static long cpuTicks(String stat) {
        // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
        // The fields are separated by one space. Scanned, not split: --per-second parses every thread's line
        // each second, and a split by a regular expression compiles it on every call.
        int field = stat.lastIndexOf(')') + 2; // field 3, the state
        for (int skipped = 0; skipped < 11; skipped++) {
            field = nextField(stat, field);
        }
        // Now at field 14, utime; field 15 is stime.
        int stime = nextField(stat, field);
        return Long.parseLong(stat, field, stime - 1, 10) + Long.parseLong(stat, stime, nextField(stat, stime) - 1, 10);
    }

    private static int nextField(String stat, int field) {
        int separator = stat.indexOf(' ', field);
        if (field < 2 || separator < 0) {
            throw new IllegalArgumentException("Not a /proc stat line: " + stat);
        }
        return separator + 1;
    }

    /** The command name of a stat line: for a thread, its name as the JVM set it (at most 15 characters). */
    static String commandName(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    public double rssMb() {
        return rssKb / 1024.0;
    }
}
