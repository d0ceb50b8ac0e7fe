package io.shardline.runtime.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table for the {@code bin/shardline} commands: upper-case headers, columns padded to their widest
 * cell, two spaces between them, {@code -} for an empty cell. Not thread-safe.
 */
final class TableWriter {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    TableWriter(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; {@code null} cells print as {@code -}. */
    TableWriter row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object c : cells) {
            row.add(c == null || String.valueOf(c).isEmpty() ? "-" : String.valueOf(c));
        }
        rows.add(row);
        return this;
    }

    /** Prints the table. */
    void print(PrintWriter out) {
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headers.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        line(out, headers, width);
        rows.forEach(r -> line(out, r, width));
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            b.append(cells.get(i));
            if (i < cells.size() - 1) {
                b.append(" ".repeat(width[i] - cells.get(i).length() + 2));
            }
        }
        out.println(b.toString().stripTrailing());
    }
}
