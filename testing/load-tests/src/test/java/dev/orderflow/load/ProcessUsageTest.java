package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class ProcessUsageTest {

    @Test
    void parsesRssAndCpuTicksEvenWithSpacesInTheCommandName() {
        String status = "Name:\tjava\nVmPeak:\t  999 kB\nVmRSS:\t  154320 kB\nThreads:\t40\n";
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (java main) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 566 0 0 20 0 40 0 100 0 0";
        ProcessUsage usage = ProcessUsage.parse(status, stat);
        assertThat(usage.rssKb()).isEqualTo(154_320);
        assertThat(usage.cpuSeconds()).isEqualTo(18.0); // (1234 + 566) ticks / 100
        assertThat(usage.rssMb()).isEqualTo(154_320 / 1024.0);
    }

    @Test
    void readsAThreadsNameAndTicksAndRefusesOtherLines() {
        String stat = "4250 (C1 CompilerThre) S 1 4242 4242 0 -1 4194624 0 0 0 0 731 12 0 0 20 0 40 0 100 0 0\n";
        assertThat(ProcessUsage.commandName(stat)).isEqualTo("C1 CompilerThre");
        assertThat(ProcessUsage.cpuTicks(stat)).isEqualTo(743);
        assertThatThrownBy(() -> ProcessUsage.cpuTicks("4250 (short) S 1 2 3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a /proc stat line");
    }

    @Test
    void readsThisJvmWithItsThreadsWaitForACore() {
        ProcessUsage cheap = ProcessUsage.of(ProcessHandle.current().pid());
        assertThat(cheap.rssKb()).isPositive();
        assertThat(cheap.cpuSeconds()).isPositive();
        assertThat(cheap.waitSeconds()).as("the every-second reading leaves the threads alone").isNaN();
        ProcessUsage usage = ProcessUsage.withWaits(ProcessHandle.current().pid());
        assertThat(usage.rssKb()).isPositive();
        // Every thread of a JVM has been given a core at least once, and no thread waits negative time.
        assertThat(usage.wakeUps()).isGreaterThanOrEqualTo(Thread.activeCount());
        assertThat(usage.waitSeconds()).isNotNegative();
    }

    @Test
    void aProcOrThreadEntryThatEndedAfterItsListingCountsAsExitedAndOtherFailuresDoNot() throws Exception {
        // What a read of /proc/<pid>/stat or task/<tid>/stat gets when the process or thread is gone:
        // ENOENT once its folder is removed, ESRCH while the folder still stands (a plain IOException in Java).
        assertThat(ProcessUsage.exited(new NoSuchFileException("/proc/123/task/456/stat"))).isTrue();
        assertThat(ProcessUsage.exited(new IOException("No such process"))).isTrue();
        assertThat(ProcessUsage.exited(new IOException("Permission denied"))).isFalse();
        assertThat(ProcessUsage.exited(new AccessDeniedException("/proc/1/stat"))).isFalse();

        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path stat = Path.of("/proc", Long.toString(ended.pid()), "stat");
        assertThatThrownBy(() -> Files.readString(stat)).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(ProcessUsage.exited((IOException) e)).as(e.toString()).isTrue());
    }

    @Test
    void readsTheFieldsOfASchedstatLineAndRefusesOthers() {
        String schedstat = "1003660730 801850586 5603\n";
        assertThat(ProcessUsage.schedstatField(schedstat, 0)).isEqualTo(1_003_660_730L);
        assertThat(ProcessUsage.schedstatField(schedstat, 1)).isEqualTo(801_850_586L);
        assertThat(ProcessUsage.schedstatField(schedstat, 2)).isEqualTo(5_603L);
        assertThatThrownBy(() -> ProcessUsage.schedstatField("1 2", 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a /proc schedstat line");
    }

    @Test
    void theWaitBetweenTwoReadingsIsInSecondsAndMicrosecondsAWakeUp() {
        ProcessUsage before = new ProcessUsage(1, 1.0, 2.0, 1_000);
        ProcessUsage after = new ProcessUsage(1, 3.0, 5.0, 7_000);
        // 3 s over 6,000 wake-ups: 500 us each
        assertThat(after.waitSince(before)).isEqualTo("3.0 (500 us)");
        ProcessUsage withoutSchedstat = ProcessUsage.parse("VmRSS:\t 10 kB\n", "1 (java) S 1 1 1 0 -1 0 0 0 0 0 5 5 0 0");
        assertThat(withoutSchedstat.waitSince(withoutSchedstat)).isEqualTo("-");
        assertThat(after.waitSince(after)).as("no wake-up between the readings").isEqualTo("-");
    }
}
