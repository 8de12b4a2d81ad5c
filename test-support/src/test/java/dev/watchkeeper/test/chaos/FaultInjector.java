package dev.watchkeeper.test.chaos;

/** How one server under test takes the faults of a {@link FaultSchedule}. */
interface FaultInjector {

    /** Starts {@code fault} now. */
    void inject(Fault fault);

    /** Ends the slow bodies a {@link FaultKind#SLOW_BODIES} fault started. */
    void endSlowBodies();

    /** Stops every fault still in force, before the end state is checked. */
    void stopFaults();
}
