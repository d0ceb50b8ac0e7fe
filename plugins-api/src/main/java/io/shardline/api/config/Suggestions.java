package io.shardline.api.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for unknown keys, by optimal string alignment distance. Stateless; package-private. */
final class Suggestions {

    private Suggestions() {
    }

    /**
     * The known key closest to {@code unknown}, if it is close enough to be a likely typo: at most
     * one edit per three characters, and at most three edits. Ties go to the alphabetically first.
     */
    static Optional<String> closest(String unknown, Collection<String> known) {
        int limit = Math.min(3, Math.max(1, unknown.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(unknown, candidate);
            if (d <= limit && (d < bestDistance || d == bestDistance && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Edits (insert, delete, substitute, swap adjacent) that turn {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
