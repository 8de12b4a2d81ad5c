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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```java} block of the README is a region of a compiled file, named by the line right before it:
 * {@code <!-- snippet: path#tag -->} (path from the repository root), the region lying between the lines
 * {@code // tag::tag[]} and {@code // end::tag[]}. Block and region must be equal but for their common indentation.
 * The Maven coordinates the README gives are those of the poms.
 */
class ReadmeSnippetsTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern SOURCE = Pattern.compile("<!-- snippet: (\\S+)#(\\S+) -->");
    private static final Pattern DEPENDENCY = Pattern.compile("<groupId>dev\\.watchkeeper</groupId>\\s*"
            + "<artifactId>(.+?)</artifactId>\\s*<version>(.+?)</version>");

    @TestFactory
    List<DynamicTest> everyJavaBlockIsATaggedRegionOfACompiledFile() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < readme.size(); i++) {
            if (!readme.get(i).strip().equals("```java")) {
                continue;
            }
            int fence = i + 1;
            int end = fence;
            while (!readme.get(end).strip().equals("```")) {
                end++;
            }
            String block = text(readme.subList(fence, end));
            String before = fence > 1 ? readme.get(fence - 2).strip() : "";
            tests.add(dynamicTest("README.md:" + fence, () -> {
                Matcher source = SOURCE.matcher(before);
                assertThat(source.matches())
                        .as("README.md:%d: no <!-- snippet: path#tag --> right before the ```java block", fence)
                        .isTrue();
                assertThat(block).as("README.md:%d against %s", fence, before)
                        .isEqualTo(region(ROOT.resolve(source.group(1)), source.group(2)));
            }));
            i = end;
        }
        assertThat(tests).as("```java blocks in README.md").isNotEmpty();
        return tests;
    }

    @Test
    void mavenCoordinatesAreThoseOfThePoms() throws IOException {
        String version = find("pom.xml", "<artifactId>watchkeeper-parent</artifactId>\\s*<version>(.+?)<");
        Matcher dependency = DEPENDENCY.matcher(Files.readString(ROOT.resolve("README.md")));
        List<String> artifacts = new ArrayList<>();
        while (dependency.find()) {
            assertThat(dependency.group(2)).as("version of %s", dependency.group(1)).isEqualTo(version);
            artifacts.add(dependency.group(1));
        }
        String artifactId = "</parent>\\s*<artifactId>(.+?)<";
        assertThat(artifacts).containsExactly(find("starter/pom.xml", artifactId),
                find("test-support/pom.xml", artifactId));
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
