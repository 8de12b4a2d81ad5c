package dev.watchkeeper.bench;

import java.util.ArrayList;
import java.util.List;

/** A plain-text (and Markdown-compatible) table printed to standard output. */
final class Table {

    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Table(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    void row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(String.valueOf(cell));
        }
        rows.add(row);
    }

    void note(String note) {
        notes.add(note);
    }

    void print() {
        int[] widths = new int[header.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = header.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder("\n### ").append(title).append("\n\n");
        line(out, header, widths);
        StringBuilder rule = new StringBuilder("|");
        for (int w : widths) {
            rule.append("-".repeat(w + 2)).append('|');
        }
        out.append(rule).append('\n');
        rows.forEach(row -> line(out, row, widths));
        if (!notes.isEmpty()) {
            out.append('\n');
            notes.forEach(n -> out.append("- ").append(n).append('\n'));
        }
        System.out.print(out);
        System.out.flush();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int c = 0; c < widths.length; c++) {
            String cell = cells.get(c);
            out.append(' ').append(cell).append(" ".repeat(widths[c] - cell.length())).append(" |");
        }
        out.append('\n');
    }

    static String ratio(double value, double base) {
        if (Double.isNaN(value) || Double.isNaN(base) || base == 0) {
            return "–";
        }
        return String.format("%.2f×", value / base);
    }

    static String mb(double bytes) {
        return Double.isNaN(bytes) ? "–" : String.format("%.0f MB", bytes / (1024 * 1024));
    }
}
