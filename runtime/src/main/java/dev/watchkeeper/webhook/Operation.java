package dev.watchkeeper.webhook;

/** An admission operation a webhook is called for, as the API server names it in its rules and requests. */
public enum Operation {
    CREATE, UPDATE, DELETE, CONNECT
}
