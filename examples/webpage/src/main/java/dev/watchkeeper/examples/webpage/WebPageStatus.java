package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import io.kubernetes.client.openapi.ApiException;
import java.util.Locale;

/** The status a WebPage's reconcile writes, and the two checks of the original that decide it. */
final class WebPageStatus {

    static final String SIMULATED = "Simulating error";
    static final String INVALID_HTML = "Invalid html.";

    private WebPageStatus() {
    }

    /**
     * The original's error simulation: a page whose HTML contains {@code error} fails. Its status says
     * {@code Error: Simulating error}, and the failure is terminal: retried once the page changes (the original
     * retries the same page a few times and gives up).
     */
    static void failOnSimulatedError(WebPage page, ReconcileContext context)
            throws ApiException, InterruptedException {
        if (page.getSpec().getHtml() != null && page.getSpec().getHtml().contains("error")) {
            context.updateStatus(page, p -> status(p).errorMessage("Error: " + SIMULATED));
            throw new TerminalReconcileException(SIMULATED);
        }
    }

    /** The original's deliberately crude check: the page holds {@code <html>} and {@code </html>}. */
    static boolean isValidHtml(WebPage page) {
        String html = page.getSpec().getHtml() == null ? "" : page.getSpec().getHtml().toLowerCase(Locale.ROOT);
        return html.contains("<html>") && html.contains("</html>");
    }

    static void invalidHtml(WebPage page, ReconcileContext context) throws ApiException, InterruptedException {
        context.updateStatus(page, p -> status(p).errorMessage(INVALID_HTML));
    }

    /** Served: the ConfigMap that holds the page, and no error. */
    static void good(WebPage page, ReconcileContext context) throws ApiException, InterruptedException {
        context.updateStatus(page, p -> status(p).htmlConfigMap(WebPageDependents.configMapName(p)).areWeGood(true)
                .errorMessage(null));
    }

    /** The page's status, made when it has none (the original's error handler assumed one). */
    private static WebPage.Status status(WebPage page) {
        if (page.getStatus() == null) {
            page.setStatus(new WebPage.Status());
        }
        return page.getStatus();
    }
}
