package dev.watchkeeper.test.chaos;

/** The kinds of fault a {@link FaultSchedule} injects; both servers under test can do each of them. */
enum FaultKind {
    /** The next few requests answer 500 InternalError. */
    INTERNAL_ERROR,
    /** The next few requests answer 503 ServiceUnavailable. */
    UNAVAILABLE,
    /** The next few requests answer 429 TooManyRequests with a Retry-After of seconds. */
    THROTTLED,
    /** Open watches get an ERROR 410 event, history kept. */
    EXPIRED_MID_STREAM,
    /** The next few watch requests answer 410 Expired. */
    EXPIRED_AT_WATCH_START,
    /** History is dropped: open watches get ERROR 410, older resourceVersions and continue tokens are gone. */
    COMPACTION,
    /** Open watches lose their connection without the terminating chunk. */
    RESET_MID_STREAM,
    /** Open watches send half a line, then lose their connection. */
    TRUNCATED_CHUNK,
    /** Open watches send a line that is not JSON. */
    MALFORMED_LINE,
    /** Response bodies trickle for a while. */
    SLOW_BODIES,
    /** Open watches go silent past their timeout, until the client's idle timeout gives up on them. */
    IDLE_PAST_TIMEOUT,
    /** Every request answers 503 for minutes (of the clock the backoff runs on). */
    OUTAGE
}
