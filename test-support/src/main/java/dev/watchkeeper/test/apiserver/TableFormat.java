package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The {@code meta.k8s.io/v1 Table} a client asks for with {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}
 * (kubectl does for {@code get}), in the real server's default shape for custom resources: a Name and an Age
 * column and each row's object as {@code PartialObjectMetadata}. kubectl needs it to tell that an empty list of a
 * cluster-scoped resource has no namespace ("No resources found", not "... in default namespace").
 */
final class TableFormat {

    private static final String NAME_DESCRIPTION = "Name must be unique within a namespace. Is required when "
            + "creating resources, although some resources may allow a client to request the generation of an "
            + "appropriate name automatically. Name is primarily intended for creation idempotence and configuration "
            + "definition. Cannot be updated. More info: "
            + "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
    private static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time "
            + "when this object was created. It is not guaranteed to be set in happens-before order across separate "
            + "operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
            + "Populated by the system. Read-only. Null for lists. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

    private TableFormat() {
    }

    /** Whether the request's Accept header asks for a Table (as kubectl's {@code get} does). */
    static boolean requested(HttpCall call) {
        String accept = call.exchange().getRequestHeaders().getFirst("Accept");
        return accept != null && accept.contains("as=Table") && accept.contains("g=meta.k8s.io");
    }

    /** A Table of {@code objects} with the list's {@code metadata} (resourceVersion, continue). */
    static JsonObject of(List<JsonObject> objects, JsonObject metadata, Instant now) {
        JsonObject table = new JsonObject();
        table.addProperty("kind", "Table");
        table.addProperty("apiVersion", "meta.k8s.io/v1");
        table.add("metadata", metadata);
        JsonArray columns = new JsonArray();
        columns.add(column("Name", "string", "name", NAME_DESCRIPTION));
        columns.add(column("Age", "date", "", AGE_DESCRIPTION));
        table.add("columnDefinitions", columns);
        JsonArray rows = new JsonArray();
        for (JsonObject object : objects) {
            JsonObject objectMetadata = Json.object(object, "metadata");
            JsonArray cells = new JsonArray();
            cells.add(Json.string(objectMetadata, "name"));
            String created = Json.string(objectMetadata, "creationTimestamp");
            cells.add(created == null ? "<unknown>" : humanDuration(Duration.between(Instant.parse(created), now)));
            JsonObject partial = new JsonObject();
            partial.addProperty("kind", "PartialObjectMetadata");
            partial.addProperty("apiVersion", "meta.k8s.io/v1");
            partial.add("metadata", objectMetadata.deepCopy());
            JsonObject row = new JsonObject();
            row.add("cells", cells);
            row.add("object", partial);
            rows.add(row);
        }
        table.add("rows", rows);
        return table;
    }

    /** apimachinery's {@code duration.HumanDuration}: {@code 78s}, {@code 5m18s}, {@code 3h}, {@code 2d4h}. */
    static String humanDuration(Duration d) {
        long seconds = d.toSeconds();
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = d.toMinutes();
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = d.toHours();
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }

    private static JsonObject column(String name, String type, String format, String description) {
        JsonObject column = new JsonObject();
        column.addProperty("name", name);
        column.addProperty("type", type);
        column.addProperty("format", format);
        column.addProperty("description", description);
        column.addProperty("priority", 0);
        return column;
    }
}
