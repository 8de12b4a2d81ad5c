package dev.watchkeeper.test.chaos;

import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded history of ConfigMap changes over several namespaces: creates (some of names deleted before), data
 * updates, label changes that move objects in and out of the selector ({@code tier=a} among the objects of this run,
 * labelled {@code run}), and deletes. The first {@link #initial()} changes are creates, made before the watcher
 * starts.
 */
final class History {

    /** One write. */
    sealed interface Change {
    }

    record Create(V1ConfigMap object) implements Change {
    }

    record Replace(V1ConfigMap object) implements Change {
    }

    record Delete(String namespace, String name) implements Change {
    }

    /** How one server under test sees the history applied. */
    interface Writer {
        void create(V1ConfigMap object) throws Exception;

        void replace(V1ConfigMap object) throws Exception;

        void delete(String namespace, String name) throws Exception;
    }

    private final String run;
    private final List<Change> changes;
    private final int initial;
    private final int objects;

    private History(String run, List<Change> changes, int initial, int objects) {
        this.run = run;
        this.changes = changes;
        this.initial = initial;
        this.objects = objects;
    }

    /**
     * @param namespaces   the namespaces to spread objects over
     * @param maxObjects   how many distinct objects at most
     * @param changeCount  how many changes in all
     * @param run          the value of every object's {@code run} label
     */
    static History draw(Random random, List<String> namespaces, int maxObjects, int changeCount, String run) {
        Map<ObjectKey, String[]> live = new LinkedHashMap<>(); // key -> {tier, version}
        List<ObjectKey> deleted = new ArrayList<>();
        List<ObjectKey> keys = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        int distinct = 0;
        int initial = maxObjects / 3;
        for (int i = 0; i < changeCount; i++) {
            int roll = random.nextInt(100);
            if (i < initial || live.size() < 5 || (roll < 20 && distinct < maxObjects)) {
                ObjectKey key = new ObjectKey(namespaces.get(random.nextInt(namespaces.size())), "cm-" + distinct++);
                live.put(key, new String[] {tier(random), "0"});
                keys.add(key);
                changes.add(new Create(configMap(key, live.get(key), run)));
            } else if (roll < 25 && !deleted.isEmpty()) {
                ObjectKey key = deleted.remove(random.nextInt(deleted.size())); // a name comes back
                live.put(key, new String[] {tier(random), "0"});
                changes.add(new Create(configMap(key, live.get(key), run)));
            } else if (roll < 40) {
                ObjectKey key = pick(random, live);
                live.remove(key);
                deleted.add(key);
                changes.add(new Delete(key.namespace(), key.name()));
            } else if (roll < 60) {
                ObjectKey key = pick(random, live);
                String[] state = live.get(key);
                state[0] = state[0].equals("a") ? "b" : "a"; // in or out of the selector
                changes.add(new Replace(configMap(key, state, run)));
            } else {
                ObjectKey key = pick(random, live);
                String[] state = live.get(key);
                state[1] = Integer.toString(Integer.parseInt(state[1]) + 1);
                changes.add(new Replace(configMap(key, state, run)));
            }
        }
        return new History(run, List.copyOf(changes), initial, keys.size());
    }

    /** The watcher's label selector: the objects of this run with {@code tier=a}. */
    String selector() {
        return "tier=a,run=" + run;
    }

    List<Change> changes() {
        return changes;
    }

    /** How many of the first changes are made before the watcher starts. */
    int initial() {
        return initial;
    }

    /** How many distinct objects the history creates. */
    int objects() {
        return objects;
    }

    /**
     * Writes the changes after the initial ones, injecting each fault of {@code schedule} just before its change and
     * ending slow bodies after their window, with {@code pace} after each change; then stops the faults.
     */
    void replay(FaultSchedule schedule, Writer writer, FaultInjector faults, Runnable pace) throws Exception {
        int slowUntil = -1;
        for (int i = initial; i < changes.size(); i++) {
            for (Fault fault : schedule.at(i)) {
                faults.inject(fault);
                if (fault.kind() == FaultKind.SLOW_BODIES) {
                    slowUntil = i + fault.requests();
                }
            }
            if (i == slowUntil) {
                faults.endSlowBodies();
            }
            apply(changes.get(i), writer);
            pace.run();
        }
        faults.stopFaults();
    }

    /** Writes the changes made before the watcher starts. */
    void writeInitial(Writer writer) throws Exception {
        for (Change change : changes.subList(0, initial)) {
            apply(change, writer);
        }
    }

    private static void apply(Change change, Writer writer) throws Exception {
        if (change instanceof Create create) {
            writer.create(create.object());
        } else if (change instanceof Replace replace) {
            writer.replace(replace.object());
        } else {
            Delete delete = (Delete) change;
            writer.delete(delete.namespace(), delete.name());
        }
    }

    private static String tier(Random random) {
        return random.nextBoolean() ? "a" : "b";
    }

    private static ObjectKey pick(Random random, Map<ObjectKey, String[]> live) {
        int index = random.nextInt(live.size());
        return live.keySet().stream().skip(index).findFirst().orElseThrow();
    }

    private static V1ConfigMap configMap(ObjectKey key, String[] state, String run) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace(key.namespace()).name(key.name())
                        .labels(Map.of("tier", state[0], "run", run)))
                .data(Map.of("version", state[1]));
    }
}
