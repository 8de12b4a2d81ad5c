package dev.watchkeeper.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Deterministic, realistic ~2.1 KB ConfigMaps (labels, annotations, one managedFields entry, a properties file)
 * and the watch lines that carry them, so every implementation reads byte-identical input; and small ~500 B ones
 * ({@link #small}). Each object is pre-rendered around its resourceVersion; a line costs two array copies and a few
 * digits to produce.
 */
final class ConfigMapBytes {

    static final String NAMESPACE = "bench";
    private static final byte[] ADDED = "{\"type\":\"ADDED\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] MODIFIED = "{\"type\":\"MODIFIED\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = "}\n".getBytes(StandardCharsets.UTF_8);

    private final int names;
    private final byte[][] before;
    private final byte[][] after;

    /** @param names how many distinct objects the events cycle through */
    ConfigMapBytes(int names) {
        this.names = names;
        this.before = new byte[names][];
        this.after = new byte[names][];
        for (int i = 0; i < names; i++) {
            String json = object(i, "\u0000");
            int at = json.indexOf('\u0000');
            before[i] = json.substring(0, at).getBytes(StandardCharsets.UTF_8);
            after[i] = json.substring(at + 1).getBytes(StandardCharsets.UTF_8);
        }
    }

    int names() {
        return names;
    }

    /** Event {@code i}: ADDED for the first pass over the names, MODIFIED after; resourceVersion {@code i + 2}. */
    void writeEvent(OutputStream out, int i) throws IOException {
        int k = i % names;
        out.write(i < names ? ADDED : MODIFIED);
        out.write(before[k]);
        writeDigits(out, i + 2L);
        out.write(after[k]);
        out.write(END);
    }

    byte[] event(int i) {
        var out = new java.io.ByteArrayOutputStream(2600);
        try {
            writeEvent(out, i);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    /** The JSON every object starts with, up to its labels (the caller goes on with its annotations). */
    private static String head(String name, int i, String resourceVersion) {
        String uid = uid(name);
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
                + "\"name\":\"" + name + "\",\"namespace\":\"" + NAMESPACE + "\",\"uid\":\"" + uid + "\","
                + "\"resourceVersion\":\"" + resourceVersion + "\","
                + "\"creationTimestamp\":\"2026-01-01T00:00:00Z\","
                + "\"labels\":{\"app\":\"bench\",\"tier\":\"web\",\"shard\":\"" + (i % 16) + "\"},";
    }

    /** The uid of {@link #small} object {@code i}. */
    static String smallUid(int i) {
        return uid(smallName(i));
    }

    /** Every object's uid is derived from its name, so each run serves the same uids (and the same shards). */
    private static String uid(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static String smallName(int i) {
        return String.format("cm-%07d", i);
    }

    private static void writeDigits(OutputStream out, long value) throws IOException {
        byte[] digits = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        out.write(digits);
    }

    /**
     * The small object {@code cm-<i>} (seven digits) with {@code resourceVersion} as given: about 500 B of JSON
     * (labels, an annotation, six short data entries, no managedFields), for caches of a million objects.
     */
    static String small(int i, String resourceVersion) {
        return head(smallName(i), i, resourceVersion)
                + "\"annotations\":{\"owner\":\"team-" + (i % 97) + "\"}},"
                + "\"data\":{\"log-level\":\"info\","
                + "\"endpoint\":\"https://svc-" + (i % 1000) + ".bench.svc.cluster.local:8443/api/v1\","
                + "\"feature-flags\":\"search=true,checkout-v2=false,dark-mode=true,beta-" + (i % 7) + "=true\","
                + "\"timeout\":\"" + (i % 60) + "s\",\"replicas\":\"" + (i % 5) + "\","
                + "\"cache.ttl\":\"" + (i % 3600) + "\"}}";
    }

    /** The object {@code cm-<i>} with {@code resourceVersion} as given. */
    static String object(int i, String resourceVersion) {
        String name = String.format("cm-%06d", i);
        StringBuilder properties = new StringBuilder();
        for (int p = 0; p < 32; p++) {
            properties.append("service.").append(name).append(".setting").append(p).append("=value-")
                    .append((i * 31 + p) % 9973).append("\\n");
        }
        return head(name, i, resourceVersion)
                + "\"annotations\":{\"owner\":\"team-" + (i % 97) + "\",\"description\":\"benchmark configuration map "
                + i + " used to measure watch throughput\"},"
                + "\"managedFields\":[{\"manager\":\"kubectl-client-side-apply\",\"operation\":\"Update\","
                + "\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":{\"f:data\":{\".\":{},\"f:application.properties\":{},\"f:log-level\":{},"
                + "\"f:feature-flags\":{}},\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{},\"f:tier\":{},"
                + "\"f:shard\":{}}}}}]},"
                + "\"data\":{\"application.properties\":\"" + properties + "\",\"log-level\":\"info\","
                + "\"feature-flags\":\"search=true,checkout-v2=false,dark-mode=true,beta-" + (i % 7) + "=true\"}}";
    }
}
