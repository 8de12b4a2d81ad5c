package dev.watchkeeper.test.apiserver;

/** Who writes, as the real server tells it from a request: {@code fieldManager}, else the User-Agent's product. */
final class Writers {

    /** The real server's limit on a manager name. */
    private static final int MAX_MANAGER_LENGTH = 128;

    private Writers() {
    }

    /** The writer of a request on the object ({@code status}: on its status subresource). */
    static FieldManager.Writer of(HttpCall call, boolean status) {
        String manager = call.param("fieldManager");
        if (manager == null) {
            manager = fromUserAgent(call.exchange().getRequestHeaders().getFirst("User-Agent"));
        }
        return new FieldManager.Writer(manager, status ? "status" : null);
    }

    /**
     * The product of a User-Agent, e.g. {@code kubectl} for {@code kubectl/v1.37.2 (linux/amd64)}, printable
     * characters only, at most 128 of them.
     */
    static String fromUserAgent(String userAgent) {
        if (userAgent == null) {
            return "";
        }
        String product = userAgent.split("/", -1)[0];
        StringBuilder manager = new StringBuilder();
        product.codePoints()
                .filter(c -> !Character.isISOControl(c))
                .forEach(c -> {
                    if (manager.length() + Character.charCount(c) <= MAX_MANAGER_LENGTH) {
                        manager.appendCodePoint(c);
                    }
                });
        return manager.toString();
    }
}
