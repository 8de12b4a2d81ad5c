package dev.watchkeeper.bench;

/** Progress lines on standard error, so standard output holds only the tables. */
final class Progress {

    private Progress() {
    }

    static void say(String format, Object... args) {
        System.err.printf(format + "%n", args);
        System.err.flush();
    }
}
