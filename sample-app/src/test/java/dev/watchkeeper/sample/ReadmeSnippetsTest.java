package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```java} block of the README and of {@code docs/} is a region of a compiled file, named by the line
 * right before it: {@code <!-- snippet: path#tag -->} (path from the repository root), the region lying between the
 * lines {@code // tag::tag[]} and {@code // end::tag[]}. Block and region must be equal but for their common
 * indentation. The one exception is the README's quick start, whose blocks are whole files of a project of their own
 * ({@code <!-- file: path -->}), which {@code .ci/quickstart} builds and tests from a clean repository. The Maven
 * coordinates the README gives are those of the poms.
 */
class ReadmeSnippetsTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern SOURCE = Pattern.compile("<!-- snippet: (\\S+)#(\\S+) -->");
    private static final Pattern QUICK_START_FILE = Pattern.compile("<!-- file: src/\\S+\\.java -->");
    private static final Pattern DEPENDENCY = Pattern.compile("<groupId>dev\\.watchkeeper</groupId>\\s*"
            + "<artifactId>(.+?)</artifactId>\\s*(?:<version>(.+?)</version>)?");

    @TestFactory
    Stream<DynamicTest> everyJavaBlockIsATaggedRegionOfACompiledFile() throws IOException {
        List<DynamicTest> tests = new ArrayList<>(blocks("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                tests.addAll(blocks("docs/" + doc.getFileName()));
            }
        }
        assertThat(tests).as("snippets in README.md and docs/").isNotEmpty();
        return tests.stream();
    }

    private static List<DynamicTest> blocks(String document) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve(document));
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```java")) {
                continue;
            }
            int fence = i + 1;
            int end = fence;
            while (!lines.get(end).strip().equals("```")) {
                end++;
            }
            String block = text(lines.subList(fence, end));
            String before = fence > 1 ? lines.get(fence - 2).strip() : "";
            String where = document + ":" + fence;
            if (document.equals("README.md") && QUICK_START_FILE.matcher(before).matches()) {
                i = end;
                continue;
            }
            tests.add(dynamicTest(where, () -> {
                Matcher source = SOURCE.matcher(before);
                assertThat(source.matches())
                        .as("%s: no <!-- snippet: path#tag --> right before the ```java block", where)
                        .isTrue();
                assertThat(block).as("%s against %s", where, before)
                        .isEqualTo(region(ROOT.resolve(source.group(1)), source.group(2)));
            }));
            i = end;
        }
        return tests;
    }

    @Test
    void mavenCoordinatesAreThoseOfThePoms() throws IOException {
        String version = find("pom.xml", "<artifactId>watchkeeper-parent</artifactId>\\s*<version>(.+?)<");
        assertThat(find("bom/pom.xml", "<artifactId>watchkeeper-bom</artifactId>\\s*<version>(.+?)<"))
                .as("the bom's version").isEqualTo(version);
        List<String> published = new ArrayList<>();
        Matcher managed = DEPENDENCY.matcher(Files.readString(ROOT.resolve("bom/pom.xml")));
        while (managed.find()) {
            published.add(managed.group(1));
        }
        Matcher dependency = DEPENDENCY.matcher(Files.readString(ROOT.resolve("README.md")));
        List<String> artifacts = new ArrayList<>();
        while (dependency.find()) {
            if (dependency.group(2) != null) {
                assertThat(dependency.group(2)).as("version of %s", dependency.group(1)).isEqualTo(version);
            }
            artifacts.add(dependency.group(1));
        }
        String artifactId = "</parent>\\s*<artifactId>(.+?)<";
        assertThat(artifacts).containsExactly("watchkeeper-bom", find("starter/pom.xml", artifactId),
                find("test-support/pom.xml", artifactId));
        assertThat(published).contains(artifacts.get(1), artifacts.get(2));
    }

    /** The first group of {@code regex} in {@code path}. */
    private static String find(String path, String regex) throws IOException {
        Matcher matcher = Pattern.compile(regex).matcher(Files.readString(ROOT.resolve(path)));
        assertThat(matcher.find()).as("%s in %s", regex, path).isTrue();
        return matcher.group(1);
    }

    private static String region(Path file, String tag) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int start = line(lines, "// tag::" + tag + "[]", file);
        int end = line(lines, "// end::" + tag + "[]", file);
        assertThat(end).as("%s: // end::%s[] after // tag::%s[]", file, tag, tag).isGreaterThan(start);
        return text(lines.subList(start + 1, end));
    }

    private static int line(List<String> lines, String marker, Path file) {
        return IntStream.range(0, lines.size()).filter(i -> lines.get(i).strip().equals(marker)).findFirst()
                .orElseThrow(() -> new AssertionError(file + " has no line " + marker));
    }

    private static String text(List<String> lines) {
        return String.join("\n", lines).stripIndent();
    }
}
