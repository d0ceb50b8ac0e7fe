package io.shardline.runtime.shard;

import java.nio.charset.StandardCharsets;

/**
 * Redis Cluster's hash slot of a key: CRC16 (XMODEM) of the key, or of its hash tag (the text between the first
 * {@code {} and the next {@code }}, when not empty), modulo 16384. Keys of one multi-key command must share a
 * slot on a cluster. Stateless.
 */
final class HashSlot {

    /** The number of slots of a Redis Cluster. */
    static final int SLOTS = 16_384;

    private HashSlot() {
    }

    /** The slot of {@code key}. */
    static int of(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int start = 0;
        int end = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                start = open + 1;
                end = close;
            }
        }
        return crc16(bytes, start, end) & (SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int crc16(byte[] bytes, int start, int end) {
        int crc = 0;
        for (int i = start; i < end; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return crc & 0xffff;
    }
}
