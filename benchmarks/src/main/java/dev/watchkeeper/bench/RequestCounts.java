package dev.watchkeeper.bench;

import io.kubernetes.client.openapi.ApiClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.Request;
import okhttp3.Response;

/**
 * kube-apiserver's own count of the resource requests it answered ({@code apiserver_request_total} from its
 * {@code /metrics}), by {@code VERB resource[/subresource] code}. Counted on the server, so it sees every client
 * alike, the application in its own JVM included; non-resource requests (such as this scrape) are left out.
 */
record RequestCounts(Map<String, Double> series) {

    private static final String METRIC = "apiserver_request_total{";

    /** Reads the counters now. */
    static RequestCounts scrape(ApiClient client) throws Exception {
        Map<String, Double> series = new TreeMap<>();
        for (String line : metricsLines(client)) {
            if (line.startsWith(METRIC)) {
                int close = line.lastIndexOf('}');
                Map<String, String> labels = labels(line.substring(METRIC.length(), close));
                if (!labels.getOrDefault("resource", "").isEmpty()) {
                    String subresource = labels.getOrDefault("subresource", "");
                    String key = labels.get("verb") + " " + labels.get("resource")
                            + (subresource.isEmpty() ? "" : "/" + subresource) + " " + labels.get("code");
                    series.merge(key, Double.parseDouble(line.substring(close + 1).trim()), Double::sum);
                }
            }
        }
        return new RequestCounts(series);
    }

    /** The lines of kube-apiserver's {@code /metrics} (Prometheus text), read now with {@code client}'s credentials. */
    static List<String> metricsLines(ApiClient client) throws Exception {
        Request request = client.buildRequest(client.getBasePath(), "/metrics", "GET", List.of(), List.of(), null,
                new HashMap<>(Map.of("Accept", "text/plain")), new HashMap<>(), new HashMap<>(),
                new String[] {"BearerToken"}, null);
        try (Response response = client.getHttpClient().newCall(request).execute()) {
            if (!response.isSuccessful()) {
                throw new IllegalStateException("GET /metrics answered " + response.code());
            }
            return List.of(response.body().string().split("\n"));
        }
    }

    /** What was counted since {@code earlier}; series that did not move are left out. */
    RequestCounts minus(RequestCounts earlier) {
        Map<String, Double> delta = new TreeMap<>();
        series.forEach((key, value) -> {
            double moved = value - earlier.series.getOrDefault(key, 0.0);
            if (moved != 0) {
                delta.put(key, moved);
            }
        });
        return new RequestCounts(delta);
    }

    /** All requests counted. */
    double total() {
        return series.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Requests answered with {@code code}. */
    double withCode(int code) {
        String suffix = " " + code;
        return series.entrySet().stream().filter(e -> e.getKey().endsWith(suffix))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** Requests of {@code verb} on {@code resource} (with its subresource, if any), any code. */
    double of(String verb, String resource) {
        String prefix = verb + " " + resource + " ";
        return series.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** Less {@code count} requests of {@code verb} on {@code resource} answered 200 (ones the harness sent). */
    RequestCounts without(String verb, String resource, double count) {
        Map<String, Double> less = new TreeMap<>(series);
        less.computeIfPresent(verb + " " + resource + " 200", (key, value) -> value - count == 0 ? null : value - count);
        return new RequestCounts(less);
    }

    /** {@code VERB resource code: count} per series. */
    String breakdown() {
        StringBuilder out = new StringBuilder();
        series.forEach((key, value) -> out.append(out.length() == 0 ? "" : "; ").append(key).append(": ")
                .append(String.format("%,.0f", value)));
        return out.toString();
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new HashMap<>();
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
            }
        }
        return labels;
    }
}
