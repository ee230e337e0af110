package dev.orderflow.order.domain;

import java.security.SecureRandom;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Order ids as ULIDs (26 characters, Crockford base32): 48 bits of epoch milliseconds then 80
 * random bits, so ids sort by creation time across instances and never collide in practice.
 * Within one millisecond this generator increments the random part, so its own ids stay strictly
 * increasing.
 */
@ApplicationScoped
public class OrderIds {

    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

    private final SecureRandom random = new SecureRandom();
    private long lastMillis = -1;
    private long randomHigh; // 16 bits
    private long randomLow;  // 64 bits

    public synchronized String next() {
        long now = System.currentTimeMillis();
        if (now <= lastMillis) {
            // Same (or a backwards-stepped) millisecond: keep the last time and count up.
            now = lastMillis;
            randomLow++;
            if (randomLow == 0) {
                randomHigh = (randomHigh + 1) & 0xFFFF;
            }
        } else {
            lastMillis = now;
            randomHigh = random.nextInt(1 << 16);
            randomLow = random.nextLong();
        }
        return encode(now, randomHigh, randomLow);
    }

    static String encode(long millis, long high16, long low64) {
        char[] out = new char[26];
        // 10 characters of time (50 bits, top 2 always zero), 16 characters of randomness (80 bits).
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (millis & 31)];
            millis >>>= 5;
        }
        // 80 random bits = high16 (bits 79..64) + low64 (bits 63..0), 5 bits per character.
        for (int i = 25; i >= 10; i--) {
            int shift = (25 - i) * 5;
            long bits;
            if (shift + 5 <= 64) {
                bits = low64 >>> shift;
            } else if (shift >= 64) {
                bits = high16 >>> (shift - 64);
            } else {
                bits = (low64 >>> shift) | (high16 << (64 - shift));
            }
            out[i] = ALPHABET[(int) (bits & 31)];
        }
        return new String(out);
    }
}
