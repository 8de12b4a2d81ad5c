package dev.watchkeeper.test.stub;

import java.util.Objects;

/**
 * The script of one path: list and watch steps in the order calls must consume them. Each call takes the next
 * step; a call of the other kind than the next step is a {@link ScriptViolation}.
 *
 * <pre>{@code
 * stub.on("/api/v1/namespaces/default/configmaps")
 *     .list(page(cm("a")).resourceVersion("3"))
 *     .watch(events(added(cm("b", "4"))).thenStayOpen());
 * }</pre>
 */
public final class PathScript {

    private final KubeApiStub stub;
    private final String path;

    PathScript(KubeApiStub stub, String path) {
        this.stub = stub;
        this.path = path;
    }

    /** The next list call (GET without {@code watch=true}) gets {@code answer}. */
    public PathScript list(ListAnswer answer) {
        stub.append(path, new Step(Step.Kind.LIST, Objects.requireNonNull(answer, "answer")));
        return this;
    }

    /** The next watch call ({@code watch=true}) gets {@code answer}. */
    public PathScript watch(WatchAnswer answer) {
        stub.append(path, new Step(Step.Kind.WATCH, Objects.requireNonNull(answer, "answer")));
        return this;
    }

    /** The path this script is for. */
    public String path() {
        return path;
    }

    /** One scripted answer and the kind of call it is for. */
    record Step(Kind kind, Object answer) {

        enum Kind {
            LIST("a list"), WATCH("a watch");

            private final String article;

            Kind(String article) {
                this.article = article;
            }

            String withArticle() {
                return article;
            }
        }
    }
}
