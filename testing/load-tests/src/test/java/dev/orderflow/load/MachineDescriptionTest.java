package dev.orderflow.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MachineDescriptionTest {

    /** One core of a Zen 3 host as its kernel lists it (the fields read, and a few beside them). */
    private static final String ZEN3_CORE = """
            processor\t: %d
            vendor_id\t: AuthenticAMD
            cpu family\t: 25
            model\t\t: 1
            model name\t: AMD EPYC
            stepping\t: 1
            cpu MHz\t\t: 2445.426
            flags\t\t: fpu vme avx2 vaes vpclmulqdq rdpid fsrm
            """;
    /** Two such cores, a blank line between them. */
    private static final String ZEN3 = ZEN3_CORE.formatted(0) + "\n" + ZEN3_CORE.formatted(1);

    @Test
    void describesTheCpuItsCoresAndItsSharedCache() {
        MachineDescription machine = MachineDescription.parse(ZEN3, "32768K", "6.18.44", "17.0.15+6");

        assertEquals("machine: AMD EPYC (family 25, model 1), 2 cores at 2445 MHz, shared cache 32 MB, AVX-512 no;"
                + " kernel 6.18.44; JDK 17.0.15+6", machine.line());
    }

    @Test
    void tellsAvx512Apart() {
        String zen4 = ZEN3.replace("model\t\t: 1", "model\t\t: 17").replace("fsrm", "fsrm avx512f avx512dq");

        MachineDescription machine = MachineDescription.parse(zen4, "32768K", "6.18.44", "17");

        assertEquals("17", machine.model());
        assertTrue(machine.avx512());
    }

    @Test
    void marksWhatItCouldNotRead() {
        MachineDescription machine = MachineDescription.parse("", "", "6.1", "17");

        assertEquals("machine: ? (family ?, model ?), 0 cores at ? MHz, shared cache ?, AVX-512 no; kernel 6.1; JDK 17",
                machine.line());
    }

    @Test
    void keepsACacheSizeInAnotherForm() {
        assertEquals("1536K", MachineDescription.parse(ZEN3, "1536K", "6.1", "17").sharedCache());
    }
}
