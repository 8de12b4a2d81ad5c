package dev.watchkeeper.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The measured rounds of one implementation: median and spread (min–max). */
final class Stats {

    private final List<Double> values = new ArrayList<>();

    void add(double value) {
        values.add(value);
    }

    int count() {
        return values.size();
    }

    double median() {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** Spread as ±% of the median: half the range over the median. */
    String spread() {
        double m = median();
        if (values.size() < 2 || m == 0 || Double.isNaN(m)) {
            return "–";
        }
        return String.format("±%.0f%%", 50 * (max() - min()) / m);
    }

    String range(String format) {
        return String.format(format, min()) + "–" + String.format(format, max());
    }

    @Override
    public String toString() {
        return Arrays.toString(values.toArray());
    }
}
