package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README, of {@code docs/} and of the examples' READMEs names a file or folder that
 * exists, and every {@code #anchor} in it a heading (or an {@code <a id>}) of the Markdown file it points at, under
 * GitHub's rule for a heading's anchor: lower case, punctuation dropped but for {@code -} and {@code _}, each space a
 * {@code -}, and a repeated heading numbered ({@code -1}, {@code -2}). Links inside code are not links.
 */
class DocsLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?"
            + "(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents()) {
            for (Link link : links(document)) {
                links++;
                String problem = problem(document, link.target());
                if (problem != null) {
                    broken.add(ROOT.relativize(document) + ":" + link.line() + ": " + link.target() + " — " + problem);
                }
            }
        }
        assertThat(links).as("relative links found in README.md and docs/").isGreaterThan(50);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertThat(anchor("Actuator endpoint `watchkeeper`")).isEqualTo("actuator-endpoint-watchkeeper");
        assertThat(anchor("Health, readiness, metrics")).isEqualTo("health-readiness-metrics");
        assertThat(anchor("§8 The store")).isEqualTo("8-the-store");
        assertThat(anchor("Spring AOT and native images")).isEqualTo("spring-aot-and-native-images");
        assertThat(anchor("The WebPage operator (`examples/webpage`)")).isEqualTo("the-webpage-operator-exampleswebpage");
        assertThat(anchor("Timeouts, write budgets and Retry-After")).isEqualTo("timeouts-write-budgets-and-retry-after");
        assertThat(anchor("A [linked](x.md) snake_case heading")).isEqualTo("a-linked-snake_case-heading");
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        try (Stream<Path> examples = Files.list(ROOT.resolve("examples"))) {
            examples.map(p -> p.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(documents::add);
        }
        return documents;
    }

    /** What is wrong with {@code target} as written in {@code document}, or null. */
    private String problem(Path document, String target) throws IOException {
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        Path file = path.isEmpty() ? document : document.getParent().resolve(path).normalize();
        if (!file.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (hash < 0) {
            return null;
        }
        String fragment = target.substring(hash + 1);
        if (!file.toString().endsWith(".md")) {
            return fragment.matches("L\\d+(-L\\d+)?") ? null : "an anchor into a file that is not Markdown";
        }
        return anchors(file).contains(fragment) ? null : "no heading or <a id> " + fragment + " in " + ROOT.relativize(file);
    }

    private Set<String> anchors(Path file) throws IOException {
        Set<String> known = anchors.get(file);
        if (known == null) {
            known = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            for (String line : prose(file)) {
                Matcher heading = HEADING.matcher(line);
                if (heading.matches()) {
                    String slug = anchor(heading.group(2));
                    int count = seen.merge(slug, 1, Integer::sum);
                    known.add(count == 1 ? slug : slug + "-" + (count - 1));
                }
                Matcher html = HTML_ANCHOR.matcher(line);
                while (html.find()) {
                    known.add(html.group(1));
                }
            }
            anchors.put(file, known);
        }
        return known;
    }

    /** GitHub's anchor of a heading's text. */
    static String anchor(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        StringBuilder slug = new StringBuilder();
        text.toLowerCase().codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_'
                    || Character.getType(c) == Character.NON_SPACING_MARK) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /** The relative links of a document, outside code. */
    private static List<Link> links(Path document) throws IOException {
        List<Link> links = new ArrayList<>();
        List<String> lines = prose(document);
        for (int i = 0; i < lines.size(); i++) {
            String line = CODE_SPAN.matcher(lines.get(i)).replaceAll("");
            Matcher link = LINK.matcher(line);
            while (link.find()) {
                add(links, link.group(1), i + 1);
            }
            Matcher reference = REFERENCE.matcher(line);
            if (reference.matches()) {
                add(links, reference.group(1), i + 1);
            }
        }
        return links;
    }

    private static void add(List<Link> links, String target, int line) {
        if (!target.isEmpty() && !SCHEME.matcher(target).find()) {
            links.add(new Link(target, line));
        }
    }

    /** The document's lines with those of fenced code blocks blanked, so that line numbers stay. */
    private static List<String> prose(Path document) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(document));
        String fence = null;
        for (int i = 0; i < lines.size(); i++) {
            String stripped = lines.get(i).strip();
            if (fence == null && (stripped.startsWith("```") || stripped.startsWith("~~~"))) {
                fence = stripped.substring(0, 3);
                lines.set(i, "");
            } else if (fence != null) {
                if (stripped.startsWith(fence)) {
                    fence = null;
                }
                lines.set(i, "");
            }
        }
        return lines;
    }

    private record Link(String target, int line) {
    }
}
