import java.util.Random;
import java.util.UUID;

/** Fixed clock and seeds, the same the Go tests give their host. */
public class RecClock {
    public static long now = 1700000000000L;
    public static long seed = 42L;
    public static long slept = 0;
    public static Random mathRandom;
    public static Random newRandom() { return new Random(seed); }
    public static double random() { if (mathRandom == null) mathRandom = new Random(seed); return mathRandom.nextDouble(); }
    public static UUID uuid() {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) b[i] = (byte) (i * 17);
        b[6] = (byte) ((b[6] & 0x0f) | 0x40);
        b[8] = (byte) ((b[8] & 0x3f) | 0x80);
        long msb = 0, lsb = 0;
        for (int i = 0; i < 8; i++) msb = (msb << 8) | (b[i] & 0xff);
        for (int i = 8; i < 16; i++) lsb = (lsb << 8) | (b[i] & 0xff);
        return new UUID(msb, lsb);
    }
    public static void sleep(long ms) { slept += ms; }
}

