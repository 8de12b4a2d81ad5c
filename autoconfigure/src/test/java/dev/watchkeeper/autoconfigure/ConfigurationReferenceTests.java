package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The property table of {@code docs/configuration.md} is the configuration metadata the build generates from the
 * properties' Javadoc: name, type, default and description. When they differ the fresh file is written to
 * {@code target/configuration.md}, so updating the docs is a copy.
 */
class ConfigurationReferenceTests {

    static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");
    static final Path DOC = Path.of("../docs/configuration.md");
    static final Path FRESH = Path.of("target/configuration.md");
    static final String BEGIN = "<!-- generated from the configuration metadata: begin -->";
    static final String END = "<!-- generated from the configuration metadata: end -->";
    static final Pattern CODE = Pattern.compile("\\{@code ([^}]*)}");
    static final Pattern QUALIFIED = Pattern.compile("(?:[a-z]\\w*\\.)+(?:[A-Z]\\w*\\$)?([A-Z]\\w*)");

    @Test
    void docsTableIsTheConfigurationMetadata() throws IOException {
        String committed = Files.readString(DOC);
        int begin = committed.indexOf(BEGIN);
        int end = committed.indexOf(END);
        assertThat(begin).as("%s in %s", BEGIN, DOC).isNotNegative();
        assertThat(end).as("%s after the begin marker in %s", END, DOC).isGreaterThan(begin);
        String fresh = committed.substring(0, begin + BEGIN.length()) + "\n" + table() + committed.substring(end);
        if (!fresh.equals(committed)) {
            Files.writeString(FRESH, fresh);
        }
        assertThat(committed).as("docs/configuration.md against the configuration metadata; the fresh file is %s",
                FRESH.toAbsolutePath().normalize()).isEqualTo(fresh);
    }

    /** One row per property, sorted by name. */
    static String table() throws IOException {
        JsonObject metadata = JsonParser.parseString(Files.readString(METADATA)).getAsJsonObject();
        List<JsonObject> properties = new ArrayList<>();
        metadata.getAsJsonArray("properties").forEach(p -> properties.add(p.getAsJsonObject()));
        properties.sort(Comparator.comparing(p -> p.get("name").getAsString()));
        StringBuilder table = new StringBuilder("| property | type | default | description |\n|---|---|---|---|\n");
        for (JsonObject property : properties) {
            table.append("| `").append(property.get("name").getAsString()).append("` | ")
                    .append(code(type(property))).append(" | ")
                    .append(property.has("defaultValue") ? code(value(property.get("defaultValue"))) : "—")
                    .append(" | ").append(description(property)).append(" |\n");
        }
        return table.toString();
    }

    private static String type(JsonObject property) {
        return QUALIFIED.matcher(property.get("type").getAsString()).replaceAll("$1");
    }

    private static String value(JsonElement value) {
        return value.isJsonArray() ? String.join(",", value.getAsJsonArray().asList().stream()
                .map(JsonElement::getAsString).toList()) : value.getAsString();
    }

    private static String description(JsonObject property) {
        if (!property.has("description")) {
            return "";
        }
        Matcher code = CODE.matcher(property.get("description").getAsString());
        return code.replaceAll(m -> Matcher.quoteReplacement("`" + m.group(1) + "`")).replace("|", "\\|")
                .replace("\n", " ");
    }

    private static String code(String text) {
        return "`" + text + "`";
    }
}
