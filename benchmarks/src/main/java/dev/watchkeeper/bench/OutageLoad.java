package dev.watchkeeper.bench;
final class OutageLoad { OutageLoad(java.time.Duration d) {} void run() {} }
