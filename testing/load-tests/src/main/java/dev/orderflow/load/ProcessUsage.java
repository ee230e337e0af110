package dev.orderflow.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A process's resident set and CPU time, read from Linux {@code /proc/<pid>/status} and
 * {@code /proc/<pid>/stat}, and how long its threads waited for a core, from each thread's
 * {@code /proc/<pid>/task/<tid>/schedstat}.
 *
 * <p>The wait is why a full machine is slow even when the work fits in its cores: a thread that
 * wakes (an answer arrived, another thread handed it work) waits in the run queue until a core is
 * free (0.4-0.7 ms a wake-up at half the maximum on two cores). It sums the
 * threads alive at the reading: a thread that exited between two readings takes its wait with it.
 *
 * @param rssKb           VmRSS in KiB
 * @param cpuSeconds      user + system CPU time since the process started
 * @param waitSeconds     time its live threads spent runnable but waiting for a core; NaN when not
 *                        read ({@link #of}) or where the kernel has no schedstat
 * @param wakeUps         times its live threads got a core (schedstat's third field); 0 when not read
 *                        or where the kernel has no schedstat
 */
public record ProcessUsage(long rssKb, double cpuSeconds, double waitSeconds, long wakeUps) {

    /** {@code sysconf(_SC_CLK_TCK)}: 100 on every Linux the suite runs on (x86-64 and arm64). */
    static final int CLOCK_TICKS_PER_SECOND = 100;

    /** The RSS and CPU time, without the run-queue figures (NaN and 0): two small reads, cheap enough every second. */
    public static ProcessUsage of(long pid) {
        Path process = Path.of("/proc", Long.toString(pid));
        try {
            return parse(Files.readString(process.resolve("status")), Files.readString(process.resolve("stat")));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read /proc/" + pid + " (has the process exited?)", e);
        }
    }

    /**
     * The RSS, CPU time and the threads' wait for a core: a read of every thread's schedstat, for the
     * readings at the start and end of a run (not the every-second samples).
     */
    public static ProcessUsage withWaits(long pid) {
        ProcessUsage usage = of(pid);
        Path process = Path.of("/proc", Long.toString(pid));
        if (!Files.exists(process.resolve("schedstat"))) {
            return usage; // a kernel without CONFIG_SCHED_INFO
        }
        try {
            long waitNanos = 0;
            long wakeUps = 0;
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(process.resolve("task"))) {
                for (Path thread : threads) {
                    try {
                        String schedstat = Files.readString(thread.resolve("schedstat"));
                        waitNanos += schedstatField(schedstat, 1);
                        wakeUps += schedstatField(schedstat, 2);
                    } catch (IOException e) {
                        if (!exited(e)) {
                            throw e;
                        }
                        // the thread exited after the listing: its wait went with it (see the class comment)
                    }
                }
            }
            return new ProcessUsage(usage.rssKb(), usage.cpuSeconds(), waitNanos / 1e9, wakeUps);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read /proc/" + pid + " (has the process exited?)", e);
        }
    }

    /**
     * Whether reading a {@code /proc} entry failed because its process or thread ended after it was
     * listed: the file is gone, or the kernel answers ESRCH, which Java reports as a plain
     * IOException "No such process" (uncaught, it would stop the per-second sampling).
     */
    static boolean exited(IOException e) {
        return e instanceof NoSuchFileException || "No such process".equals(e.getMessage());
    }

    /**
     * One field of a {@code schedstat} line: 0 the time on a core, 1 the time runnable and waiting for
     * one (both in nanoseconds), 2 the times it got one.
     */
    static long schedstatField(String schedstat, int index) {
        String[] fields = schedstat.trim().split(" ");
        if (fields.length != 3) {
            throw new IllegalArgumentException("Not a /proc schedstat line: " + schedstat);
        }
        return Long.parseLong(fields[index]);
    }

    /**
     * @param status the text of {@code /proc/<pid>/status}; @param stat the line of {@code /proc/<pid>/stat}
     * @return the RSS and CPU time, without the run-queue figures (NaN and 0)
     */
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
        return new ProcessUsage(rssKb, cpuTicks(stat) / (double) CLOCK_TICKS_PER_SECOND, Double.NaN, 0);
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

    /**
     * The threads' wait for a core between {@code before} and this reading, as "seconds (microseconds
     * a wake-up)", or "-" where the kernel has no schedstat.
     */
    String waitSince(ProcessUsage before) {
        double seconds = waitSeconds - before.waitSeconds;
        long wakeUpsBetween = wakeUps - before.wakeUps;
        if (Double.isNaN(seconds) || wakeUpsBetween <= 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f (%.0f us)", seconds, seconds * 1e6 / wakeUpsBetween);
    }
}
