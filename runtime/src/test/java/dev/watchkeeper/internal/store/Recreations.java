package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/** A store read over and over on another thread while the calling thread deletes its objects and applies them again. */
final class Recreations {

    private Recreations() {
    }

    /**
     * The answers that named an object twice: {@code read} is called with the read's number, up to {@code reads}
     * times or until an answer names an object twice, while each of {@code objects} in turn is deleted from
     * {@code store} and applied again.
     *
     * @throws AssertionError when a read throws
     */
    static List<List<String>> repeatedAnswers(CacheStore<V1ConfigMap> store, List<CachedObject<V1ConfigMap>> objects,
            int reads, IntFunction<List<String>> read) throws InterruptedException {
        List<List<String>> repeated = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                for (int i = 0; i < reads && repeated.isEmpty(); i++) {
                    List<String> names = read.apply(i);
                    if (names.stream().distinct().count() != names.size()) {
                        repeated.add(names);
                    }
                }
            } catch (RuntimeException | Error e) {
                thrown.set(e);
            }
        }, "store-reader");
        reader.start();
        for (int i = 0; reader.isAlive(); i = (i + 1) % objects.size()) {
            store.delete(objects.get(i).key());
            store.apply(objects.get(i));
        }
        reader.join();
        if (thrown.get() != null) {
            throw new AssertionError("a read failed while the objects were recreated", thrown.get());
        }
        return repeated;
    }
}
