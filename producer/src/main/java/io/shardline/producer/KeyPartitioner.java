package io.shardline.producer;

import java.nio.charset.StandardCharsets;

/**
 * Maps a record key to a shard exactly as Kafka's default partitioner maps a key to a partition:
 * {@code toPositive(murmur2(keyBytes)) % shardCount}, with Kafka's murmur2 (seed {@code 0x9747b28c}) over
 * the key's UTF-8 bytes (what Kafka's {@code StringSerializer} produces). So a key lands on the same
 * shard number here as on the same partition number of a Kafka topic with as many partitions.
 * Stateless and thread-safe.
 */
public final class KeyPartitioner {

    private static final int SEED = 0x9747b28c;
    private static final int M = 0x5bd1e995;
    private static final int R = 24;

    private KeyPartitioner() {
    }

    /** The shard of a string key (UTF-8 bytes). */
    public static int shardFor(String key, int shardCount) {
        return shardFor(key.getBytes(StandardCharsets.UTF_8), shardCount);
    }

    /**
     * The shard of a serialized key.
     *
     * @throws IllegalArgumentException when {@code shardCount < 1}
     */
    public static int shardFor(byte[] keyBytes, int shardCount) {
        if (shardCount < 1) {
            throw new IllegalArgumentException("shard count must be >= 1, got " + shardCount);
        }
        return toPositive(murmur2(keyBytes)) % shardCount;
    }

    /** Kafka's {@code Utils.toPositive}: clears the sign bit (not {@code Math.abs}, which fails for MIN_VALUE). */
    public static int toPositive(int number) {
        return number & 0x7fffffff;
    }

    /** Kafka's {@code Utils.murmur2}: 32-bit MurmurHash2 with Kafka's seed. */
    public static int murmur2(byte[] data) {
        int length = data.length;
        int h = SEED ^ length;
        int length4 = length / 4;
        for (int i = 0; i < length4; i++) {
            int i4 = i * 4;
            int k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16) + ((data[i4 + 3] & 0xff) << 24);
            k *= M;
            k ^= k >>> R;
            k *= M;
            h *= M;
            h ^= k;
        }
        int tail = length & ~3;
        switch (length % 4) {
            case 3:
                h ^= (data[tail + 2] & 0xff) << 16;
                // fall through
            case 2:
                h ^= (data[tail + 1] & 0xff) << 8;
                // fall through
            case 1:
                h ^= data[tail] & 0xff;
                h *= M;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= M;
        h ^= h >>> 15;
        return h;
    }
}
