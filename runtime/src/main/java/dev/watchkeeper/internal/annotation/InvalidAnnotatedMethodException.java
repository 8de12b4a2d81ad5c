package dev.watchkeeper.internal.annotation;

import java.lang.annotation.Annotation;

/**
 * A {@code @Reconciler}, {@code @Cleanup} or {@code @WatchListener} method Watchkeeper cannot use: which annotation,
 * which bean and method, and what is wrong, for the start-up failure report. Its message says all three in one line.
 */
public final class InvalidAnnotatedMethodException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final Class<? extends Annotation> annotation;
    private final String beanName;
    private final String method;
    private final String problem;

    InvalidAnnotatedMethodException(Class<? extends Annotation> annotation, String beanName, String method,
            String problem) {
        super("Invalid @" + annotation.getSimpleName() + " method bean '" + beanName + "' method " + method + ": "
                + problem);
        this.annotation = annotation;
        this.beanName = beanName;
        this.method = method;
        this.problem = problem;
    }

    public Class<? extends Annotation> annotation() {
        return annotation;
    }

    public String beanName() {
        return beanName;
    }

    /** {@code Type.name(Param, ...)}. */
    public String method() {
        return method;
    }

    public String problem() {
        return problem;
    }
}
