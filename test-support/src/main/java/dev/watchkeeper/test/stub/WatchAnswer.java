package dev.watchkeeper.test.stub;

/** What a scripted watch call may answer: a stream of events, an error Status, a fault or a raw body. */
public sealed interface WatchAnswer permits StreamAnswer, StatusReply, FaultReply, RawReply {
}
