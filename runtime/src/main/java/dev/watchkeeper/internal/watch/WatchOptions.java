package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.unit.DataSize;

/**
 * How a watcher lists and watches. The defaults are the {@code DEFAULT_*} constants, written as Spring Boot binds
 * them, so the Boot layer declares its property defaults with them.
 *
 * @param pageSize           list page size ({@code limit}); default {@value #DEFAULT_PAGE_SIZE}
 * @param timeout            server-side watch timeout ({@code timeoutSeconds}); default {@value #DEFAULT_TIMEOUT}
 * @param initialList        list-watch, streaming or auto; default {@value #DEFAULT_INITIAL_LIST}
 * @param listSemantics      which lists list-watch sends: consistent reads, or client-go's from the watch cache;
 *                           default {@value #DEFAULT_LIST_SEMANTICS}
 * @param stripManagedFields drop {@code metadata.managedFields} before caching; default
 *                           {@value #DEFAULT_STRIP_MANAGED_FIELDS}
 * @param idleMargin         a watch silent for {@code timeout + idleMargin} is broken; default
 *                           {@value #DEFAULT_IDLE_MARGIN}
 * @param autoFallbackAfter  in AUTO mode, fall back to list-watch when the initial events have not ended after
 *                           this long; default {@value #DEFAULT_AUTO_FALLBACK_AFTER}
 * @param maxEventSize       a watch line longer than this breaks the watch instead of being buffered; default
 *                           {@value #DEFAULT_MAX_EVENT_SIZE}, about ten times the largest object etcd accepts by
 *                           default (1.5 MiB)
 */
public record WatchOptions(int pageSize, Duration timeout, InitialListStrategy initialList,
        ListSemantics listSemantics, boolean stripManagedFields, Duration idleMargin, Duration autoFallbackAfter,
        DataSize maxEventSize) {

    /** The defaults, written as Spring Boot binds them. */
    public static final String DEFAULT_PAGE_SIZE = "500";
    public static final String DEFAULT_TIMEOUT = "290s";
    public static final String DEFAULT_INITIAL_LIST = "list-watch";
    public static final String DEFAULT_LIST_SEMANTICS = "consistent";
    public static final String DEFAULT_STRIP_MANAGED_FIELDS = "true";
    public static final String DEFAULT_IDLE_MARGIN = "5s";
    public static final String DEFAULT_AUTO_FALLBACK_AFTER = "10s";
    public static final String DEFAULT_MAX_EVENT_SIZE = "16MB";

    private static final DataSize MIN_EVENT_SIZE = DataSize.ofKilobytes(1);

    public WatchOptions {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(initialList, "initialList");
        Objects.requireNonNull(listSemantics, "listSemantics");
        Objects.requireNonNull(idleMargin, "idleMargin");
        Objects.requireNonNull(autoFallbackAfter, "autoFallbackAfter");
        Objects.requireNonNull(maxEventSize, "maxEventSize");
        if (pageSize < 1) {
            throw new InvalidSettingException("pageSize", pageSize, "must be at least 1");
        }
        if (timeout.getSeconds() < 1) {
            // sent in whole seconds: anything shorter would be timeoutSeconds=0, no timeout at all
            throw new InvalidSettingException("timeout", timeout, "must be at least 1s");
        }
        InvalidSettingException.requirePositive("autoFallbackAfter", autoFallbackAfter);
        if (maxEventSize.compareTo(MIN_EVENT_SIZE) < 0) {
            throw new InvalidSettingException("maxEventSize", maxEventSize, "must be at least 1KB");
        }
    }

    /** The defaults: the {@code DEFAULT_*} constants of this record. */
    public static WatchOptions defaults() {
        return new WatchOptions(Integer.parseInt(DEFAULT_PAGE_SIZE),
                DurationFormatterUtils.detectAndParse(DEFAULT_TIMEOUT),
                InitialListStrategy.valueOf(constantName(DEFAULT_INITIAL_LIST)),
                ListSemantics.valueOf(constantName(DEFAULT_LIST_SEMANTICS)),
                Boolean.parseBoolean(DEFAULT_STRIP_MANAGED_FIELDS),
                DurationFormatterUtils.detectAndParse(DEFAULT_IDLE_MARGIN),
                DurationFormatterUtils.detectAndParse(DEFAULT_AUTO_FALLBACK_AFTER),
                DataSize.parse(DEFAULT_MAX_EVENT_SIZE));
    }

    /** {@code list-watch} as {@code LIST_WATCH}. */
    private static String constantName(String value) {
        return value.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** These options with another list page size. */
    public WatchOptions withPageSize(int pageSize) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options with another watch timeout (the server ends each watch after it). */
    public WatchOptions withTimeout(Duration timeout) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options with another way to make the initial list. */
    public WatchOptions withInitialList(InitialListStrategy initialList) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options with other list semantics. */
    public WatchOptions withListSemantics(ListSemantics listSemantics) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options, keeping or dropping {@code metadata.managedFields} of cached objects. */
    public WatchOptions withStripManagedFields(boolean strip) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, strip,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options with another margin past the timeout after which a silent watch counts as broken. */
    public WatchOptions withIdleMargin(Duration idleMargin) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    /** These options with another wait for a streaming list's end before {@code AUTO} falls back. */
    public WatchOptions withAutoFallbackAfter(Duration after) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, after, maxEventSize);
    }

    /** These options with another largest event the watcher accepts. */
    public WatchOptions withMaxEventSize(DataSize size) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, size);
    }
}
