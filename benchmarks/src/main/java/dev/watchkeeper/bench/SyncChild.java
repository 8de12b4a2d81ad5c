package dev.watchkeeper.bench;
final class SyncChild { static void main(java.util.List<String> a) {} }
