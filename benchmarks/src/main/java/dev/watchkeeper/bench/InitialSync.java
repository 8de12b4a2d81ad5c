package dev.watchkeeper.bench;
final class InitialSync { InitialSync(int n, int w, int r) {} void run() {} }
