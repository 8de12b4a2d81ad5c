package dev.watchkeeper.test.stub;

/** What a scripted list call may answer: a page, an error Status, a fault or a raw body. */
public sealed interface ListAnswer permits PageAnswer, StatusReply, FaultReply, RawReply {
}
