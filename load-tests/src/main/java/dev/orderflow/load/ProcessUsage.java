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
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // After the name, field 3 (state) is index 0, so utime (14) is index 11 and stime (15) index 12.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** The command name of a stat line: for a thread, its name as the JVM set it (at most 15 characters). */
    static String commandName(String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    public double rssMb() {
        return rssKb / 1024.0;
    }
}
