package dev.watchkeeper.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws a curve over the number of objects into a PNG with java.awt (headless): one panel per figure (the scaling
 * curve's: time to ready, steady heap per object, relist peak) over the number of objects on a log scale, one line per
 * implementation, each point labelled with its value where there is room, and a red cross where an implementation
 * stopped (e.g. ran out of heap) before measuring that figure.
 */
final class ScalingPlot {

    /** One measured size of one implementation: its figures, in the order of the panels that draw them. */
    record Point(int objects, double... values) {
    }

    /**
     * One panel: the figure {@code value} takes from each point, labelled with {@code unit}.
     *
     * @param logY a log scale upwards; else linear from zero
     */
    record Panel(String name, boolean logY, ToDoubleFunction<Point> value, String unit) {
    }

    /** Where an implementation stopped, and why (the marker's label). */
    record Failure(int objects, String reason) {
    }

    /**
     * One implementation's line; {@code failure} is {@code null} when it completed every size. A point may lack a
     * figure (NaN) that the failure prevented; the failure is marked in the panels that lack it.
     */
    record Series(String name, Color color, List<Point> points, Failure failure) {
    }

    private static final int PANEL_WIDTH = 540;
    private static final int PANEL_HEIGHT = 440;
    private static final int TITLE_HEIGHT = 50;
    private static final int LEGEND_HEIGHT = 60;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 40;
    private static final int BOTTOM = 55;
    static final double MIB = 1024 * 1024;
    private static final Color FAILURE = new Color(0xd62728);
    private static final Color GRID = new Color(0xe6e6e6);

    private ScalingPlot() {
    }

    /** The scaling curve's panels, for points of {time to ready in ms, steady bytes per object, relist peak bytes}. */
    static final List<Panel> SCALING = List.of(
            new Panel("time to ready (s, log scale)", true, p -> p.values()[0] / 1000, " s"),
            new Panel("steady heap per object (B)", false, p -> p.values()[1], " B"),
            new Panel("relist peak, live heap (MB, log scale)", true, p -> p.values()[2] / MIB, " MB"));

    static void write(Path file, String title, List<Panel> panels, List<Series> series) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int width = panels.size() * PANEL_WIDTH;
        BufferedImage image = new BufferedImage(width, TITLE_HEIGHT + PANEL_HEIGHT + LEGEND_HEIGHT,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
            centered(g, title, image.getWidth() / 2, 32);
            for (int i = 0; i < panels.size(); i++) {
                Panel panel = panels.get(i);
                panel(g, i, panel.name(), panel.logY(), panel.value(), panel.unit(), series);
            }
            legend(g, series, width, TITLE_HEIGHT + PANEL_HEIGHT + 30);
        } finally {
            g.dispose();
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JVM");
        }
    }

    private static void panel(Graphics2D g, int index, String name, boolean logY, ToDoubleFunction<Point> value,
                              String unit, List<Series> series) {
        int x0 = index * PANEL_WIDTH + LEFT;
        int x1 = (index + 1) * PANEL_WIDTH - RIGHT;
        int y0 = TITLE_HEIGHT + PANEL_HEIGHT - BOTTOM;
        int y1 = TITLE_HEIGHT + TOP;
        double minX = Double.MAX_VALUE;
        double maxX = 0;
        double minY = Double.MAX_VALUE;
        double maxY = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                double v = value.applyAsDouble(p);
                if (v > 0 && !Double.isNaN(v)) {
                    minX = Math.min(minX, p.objects());
                    maxX = Math.max(maxX, p.objects());
                    minY = Math.min(minY, v);
                    maxY = Math.max(maxY, v);
                }
            }
            if (s.failure() != null) {
                minX = Math.min(minX, s.failure().objects());
                maxX = Math.max(maxX, s.failure().objects());
            }
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        centered(g, name, (x0 + x1) / 2, TITLE_HEIGHT + 22);
        if (maxX == 0 || maxY == 0) {
            return;
        }
        Scale x = Scale.log(minX, maxX, x0, x1);
        Scale y = logY ? Scale.log(minY, maxY, y0, y1) : Scale.linear(maxY * 1.15, y0, y1);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double tick : x.ticks()) {
            int px = x.pixel(tick);
            g.setColor(GRID);
            g.drawLine(px, y0, px, y1);
            g.setColor(Color.BLACK);
            centered(g, objects(tick), px, y0 + 18);
        }
        for (double tick : y.ticks()) {
            int py = y.pixel(tick);
            g.setColor(GRID);
            g.drawLine(x0, py, x1, py);
            g.setColor(Color.BLACK);
            String label = number(tick);
            g.drawString(label, x0 - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        g.setColor(Color.BLACK);
        g.drawRect(x0, y1, x1 - x0, y0 - y1);
        centered(g, "objects (log scale)", (x0 + x1) / 2, y0 + 40);
        Stroke plain = g.getStroke();
        List<Rectangle> taken = new ArrayList<>();
        List<Label> labels = new ArrayList<>();
        for (Series s : series) {
            g.setColor(s.color());
            g.setStroke(new BasicStroke(2.5f));
            int lastX = -1;
            int lastY = -1;
            for (Point p : s.points()) {
                double v = value.applyAsDouble(p);
                if (!(v > 0)) {
                    continue;
                }
                int px = x.pixel(p.objects());
                int py = y.pixel(v);
                if (lastX >= 0) {
                    g.drawLine(lastX, lastY, px, py);
                }
                g.fillOval(px - 5, py - 5, 10, 10);
                taken.add(new Rectangle(px - 5, py - 5, 10, 10));
                labels.add(new Label(number(v) + unit, s.color(), px, py,
                        highest(series, p.objects(), value) == v));
                lastX = px;
                lastY = py;
            }
            if (s.failure() != null && !(measuredAt(s, s.failure().objects(), value) > 0)) {
                int fx = x.pixel(s.failure().objects());
                int fy = y1 + 24;
                if (lastX >= 0) {
                    g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                            new float[] {6, 5}, 0));
                    g.drawLine(lastX, lastY, fx, fy);
                }
                g.setColor(FAILURE);
                g.setStroke(new BasicStroke(3f));
                g.drawLine(fx - 8, fy - 8, fx + 8, fy + 8);
                g.drawLine(fx - 8, fy + 8, fx + 8, fy - 8);
                String label = s.failure().reason();
                FontMetrics metrics = g.getFontMetrics();
                int width = metrics.stringWidth(label);
                int lx = Math.max(x0 + 4, Math.min(fx - width / 2, x1 - width - 4));
                g.drawString(label, lx, fy + 24);
                taken.add(new Rectangle(fx - 8, fy - 8, 16, 16));
                taken.add(new Rectangle(lx, fy + 24 - metrics.getAscent(), width, metrics.getHeight()));
            }
            g.setStroke(plain);
        }
        Rectangle area = new Rectangle(x0, y1, x1 - x0, y0 - y1);
        for (Label label : labels) {
            label.place(g, area, taken);
        }
    }

    /** A point's value, drawn beside it where it overlaps nothing drawn before, or left out. */
    private record Label(String text, Color color, int x, int y, boolean above) {

        void place(Graphics2D g, Rectangle area, List<Rectangle> taken) {
            FontMetrics metrics = g.getFontMetrics();
            int width = metrics.stringWidth(text);
            int[] lefts = {x + 8, x - 8 - width};
            int[] baselines = above ? new int[] {y - 8, y + 8 + metrics.getAscent()}
                    : new int[] {y + 8 + metrics.getAscent(), y - 8};
            for (int baseline : baselines) {
                for (int left : lefts) {
                    Rectangle box = new Rectangle(left, baseline - metrics.getAscent(), width, metrics.getHeight());
                    if (area.contains(box) && taken.stream().noneMatch(box::intersects)) {
                        g.setColor(color);
                        g.drawString(text, left, baseline);
                        taken.add(box);
                        return;
                    }
                }
            }
        }
    }

    /** The series' value at {@code objects}, NaN when it has none (it stopped before measuring it). */
    private static double measuredAt(Series series, int objects, ToDoubleFunction<Point> value) {
        return series.points().stream().filter(p -> p.objects() == objects).mapToDouble(value).findFirst()
                .orElse(Double.NaN);
    }

    /** The highest value any series has at {@code objects}: its label goes above the point, the others' below. */
    private static double highest(List<Series> series, int objects, ToDoubleFunction<Point> value) {
        double highest = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (Point p : s.points()) {
                if (p.objects() == objects && !Double.isNaN(value.applyAsDouble(p))) {
                    highest = Math.max(highest, value.applyAsDouble(p));
                }
            }
        }
        return highest;
    }

    private static void legend(Graphics2D g, List<Series> series, int width, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        FontMetrics metrics = g.getFontMetrics();
        int total = 0;
        for (Series s : series) {
            total += 40 + metrics.stringWidth(s.name());
        }
        int x = (width - total) / 2;
        for (Series s : series) {
            g.setColor(s.color());
            g.fillRect(x, y - 10, 24, 8);
            g.setColor(Color.BLACK);
            g.drawString(s.name(), x + 30, y);
            x += 40 + metrics.stringWidth(s.name());
        }
        if (series.stream().anyMatch(s -> s.failure() != null)) {
            g.setColor(FAILURE);
            g.drawString("× where an implementation stopped", x, y);
        }
    }

    private static void centered(Graphics2D g, String text, int x, int y) {
        g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
    }

    /** Two significant digits below ten, whole numbers above. */
    private static String number(double value) {
        return new DecimalFormat(value < 1 ? "#,##0.##" : value < 10 ? "#,##0.#" : "#,##0").format(value);
    }

    private static String objects(double n) {
        if (n >= 1_000_000) {
            return String.format("%,.0fM", n / 1_000_000);
        }
        return n >= 1_000 ? String.format("%,.0fk", n / 1_000) : String.format("%,.0f", n);
    }

    /** Values to pixels along one axis; {@code min} maps to {@code from}, {@code max} to {@code to}. */
    private record Scale(boolean log, double min, double max, int from, int to) {

        /** The values' range widened by a margin on both sides, so no point or label sits on the frame. */
        static Scale log(double low, double high, int from, int to) {
            double margin = Math.max(0.1, 0.12 * Math.log10(high / low));
            return new Scale(true, low / Math.pow(10, margin), high * Math.pow(10, margin), from, to);
        }

        /** From zero to {@code high}, rounded up to a tick. */
        static Scale linear(double high, int from, int to) {
            double step = step(high);
            return new Scale(false, 0, Math.ceil(high / step) * step, from, to);
        }

        int pixel(double value) {
            double share = log ? Math.log(value / min) / Math.log(max / min) : (value - min) / (max - min);
            return (int) Math.round(from + share * (to - from));
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                double[] steps = Math.log10(max / min) < 2.5 ? new double[] {1, 2, 5} : new double[] {1};
                for (double decade = Math.pow(10, Math.floor(Math.log10(min))); decade <= max; decade *= 10) {
                    for (double step : steps) {
                        if (decade * step >= min && decade * step <= max) {
                            ticks.add(decade * step);
                        }
                    }
                }
            } else {
                double step = step(max);
                for (double tick = 0; tick <= max * 1.0001; tick += step) {
                    ticks.add(tick);
                }
            }
            return ticks;
        }

        /** A round step giving four to ten ticks up to {@code high}. */
        private static double step(double high) {
            double magnitude = Math.pow(10, Math.floor(Math.log10(high)));
            for (double factor : new double[] {0.1, 0.2, 0.5, 1}) {
                if (high / (magnitude * factor) <= 10) {
                    return magnitude * factor;
                }
            }
            return magnitude;
        }
    }
}
