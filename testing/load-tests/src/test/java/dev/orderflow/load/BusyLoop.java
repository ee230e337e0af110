package dev.orderflow.load;

/** A process that keeps one thread busy in {@link #spin} until killed (at most a minute): AsyncProfileTest profiles it. */
public final class BusyLoop {

    private BusyLoop() {
    }

    public static void main(String[] args) {
        long until = System.nanoTime() + 60_000_000_000L;
        long sum = 0;
        System.out.println("spinning");
        System.out.flush();
        while (System.nanoTime() < until) {
            sum += spin(sum);
        }
        System.out.println(sum);
    }

    static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < 1_000_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
