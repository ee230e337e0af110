package dev.orderflow.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine a run ran on, for its report ({@code machine:} line): the CPU as the kernel names it,
 * with its family and model numbers and whether it has AVX-512, the cores, the shared cache, the
 * kernel and the JDK. Hosts of one name differ: one "AMD EPYC" has AVX-512 (Zen 4's instruction set),
 * another is family 25 model 1 without it (Zen 3), and the same suite needs 60 % more CPU per order on
 * the second. Read from
 * {@code /proc/cpuinfo} and sysfs: Linux only, "?" where a value is missing.
 */
record MachineDescription(String cpuName, String family, String model, int cores, String mhz, boolean avx512,
        String sharedCache, String kernel, String jdk) {

    static final Path CPUINFO = Path.of("/proc/cpuinfo");
    /** The last level cache of the first core (index3: L3 on the hosts so far). */
    static final Path SHARED_CACHE_SIZE = Path.of("/sys/devices/system/cpu/cpu0/cache/index3/size");

    static MachineDescription read() {
        return parse(readOrEmpty(CPUINFO), readOrEmpty(SHARED_CACHE_SIZE).trim(), System.getProperty("os.version"),
                Runtime.version().toString());
    }

    /** From the text of {@code /proc/cpuinfo} (one block per core) and the cache's size as sysfs writes it ("32768K"). */
    static MachineDescription parse(String cpuinfo, String sharedCacheSize, String kernel, String jdk) {
        String[] lines = cpuinfo.split("\n");
        int cores = (int) Arrays.stream(lines).filter(line -> key(line).equals("processor")).count();
        String flags = first(lines, "flags").orElse("");
        boolean avx512 = Arrays.asList(flags.split(" ")).contains("avx512f");
        String mhz = first(lines, "cpu MHz").map(value -> value.replaceFirst("\\..*", "")).orElse("?");
        return new MachineDescription(first(lines, "model name").orElse("?"), first(lines, "cpu family").orElse("?"),
                first(lines, "model").orElse("?"), cores, mhz, avx512, cacheSize(sharedCacheSize), kernel, jdk);
    }

    String line() {
        return String.format(Locale.ROOT, "machine: %s (family %s, model %s), %d cores at %s MHz, shared cache %s,"
                + " AVX-512 %s; kernel %s; JDK %s", cpuName, family, model, cores, mhz, sharedCache,
                avx512 ? "yes" : "no", kernel, jdk);
    }

    /** "32768K" as "32 MB"; a size in another form as it is; "?" when empty. */
    private static String cacheSize(String sysfsSize) {
        if (sysfsSize.isEmpty()) {
            return "?";
        }
        if (!sysfsSize.matches("\\d+K")) {
            return sysfsSize;
        }
        long kilobytes = Long.parseLong(sysfsSize.substring(0, sysfsSize.length() - 1));
        return kilobytes % 1024 == 0 ? kilobytes / 1024 + " MB" : sysfsSize;
    }

    private static Optional<String> first(String[] lines, String key) {
        return Arrays.stream(lines).filter(line -> key(line).equals(key)).findFirst()
                .map(line -> line.substring(line.indexOf(':') + 1).trim());
    }

    private static String key(String line) {
        int colon = line.indexOf(':');
        return colon < 0 ? "" : line.substring(0, colon).trim();
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
