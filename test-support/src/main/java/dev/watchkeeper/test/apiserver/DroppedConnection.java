package dev.watchkeeper.test.apiserver;

/**
 * Thrown out of a request handler to drop the connection without finishing the response: the JDK server then
 * closes the socket, so a chunked body ends without its terminating chunk, as when a connection is reset.
 */
final class DroppedConnection extends RuntimeException {

    DroppedConnection(String why) {
        super(why, null, false, false);
    }
}
