package dev.watchkeeper.internal.events;

/**
 * What an {@link EventRecorder} did with the occurrences it was given, since it started.
 *
 * @param written     writes the API server accepted: Events created, and series written onto them
 * @param aggregated  occurrences counted in an existing Event's series instead of creating one
 * @param dropped     occurrences lost to a full queue (or given after close): never waited for
 * @param rateLimited occurrences the per-object spam filter dropped
 * @param failed      writes the API server refused or did not answer; logged
 */
public record EventCounts(long written, long aggregated, long dropped, long rateLimited, long failed) {
}
