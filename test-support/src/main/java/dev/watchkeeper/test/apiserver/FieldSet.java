package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A set of field paths as the real server's structured-merge-diff keeps them, encoded as {@code FieldsV1}: a tree
 * whose keys are path elements ({@code f:name} a field, {@code k:{"name":"c"}} a keyed list item,
 * {@code v:"x"} a set list value); {@code "."} marks a node that is itself a member, a leaf is a member.
 *
 * <pre>{@code
 * FieldSet.fromFieldsV1(json("{\"f:data\":{\".\":{},\"f:a\":{}}}"))   // .data and .data.a
 * }</pre>
 */
final class FieldSet {

    /** Orders path elements as structured-merge-diff does: fields, then keys, then values, each by text. */
    private static final Comparator<String> ELEMENT_ORDER = Comparator
            .<String>comparingInt(e -> "fkvi".indexOf(e.charAt(0)))
            .thenComparing(e -> e.substring(2));

    private boolean member;
    private final TreeMap<String, FieldSet> children = new TreeMap<>(ELEMENT_ORDER);

    static FieldSet empty() {
        return new FieldSet();
    }

    static FieldSet fromFieldsV1(JsonObject fields) {
        FieldSet set = new FieldSet();
        for (Map.Entry<String, JsonElement> entry : fields.entrySet()) {
            if (entry.getKey().equals(".")) {
                set.member = true;
            } else if (entry.getValue().isJsonObject()) {
                FieldSet child = fromFieldsV1(entry.getValue().getAsJsonObject());
                if (child.children.isEmpty()) {
                    child.member = true;
                }
                set.children.put(entry.getKey(), child);
            }
        }
        return set;
    }

    /** The {@code FieldsV1} encoding. */
    JsonObject toFieldsV1() {
        JsonObject json = new JsonObject();
        if (member && children.values().stream().anyMatch(c -> !c.isEmpty())) {
            json.add(".", new JsonObject());
        }
        children.forEach((element, child) -> {
            if (!child.isEmpty()) {
                json.add(element, child.toFieldsV1());
            }
        });
        return json;
    }

    /** The node at {@code element}, created when absent. */
    FieldSet child(String element) {
        return children.computeIfAbsent(element, e -> new FieldSet());
    }

    /** The node at {@code element}, or {@code null}. */
    FieldSet find(String element) {
        return children.get(element);
    }

    Map<String, FieldSet> children() {
        return children;
    }

    boolean isMember() {
        return member;
    }

    /** Makes this node a member; returns {@code this}. */
    FieldSet markMember() {
        member = true;
        return this;
    }

    /** This set without the node at {@code element} being a member itself (its members below stay). */
    FieldSet withoutMember(String element) {
        FieldSet result = copy();
        FieldSet child = result.children.get(element);
        if (child != null) {
            child.member = false;
        }
        return result;
    }

    boolean isEmpty() {
        return !member && children.values().stream().allMatch(FieldSet::isEmpty);
    }

    FieldSet copy() {
        FieldSet copy = new FieldSet();
        copy.member = member;
        children.forEach((e, c) -> copy.children.put(e, c.copy()));
        return copy;
    }

    FieldSet union(FieldSet other) {
        FieldSet result = copy();
        result.addAll(other);
        return result;
    }

    FieldSet minus(FieldSet other) {
        FieldSet result = new FieldSet();
        result.member = member && (other == null || !other.member);
        children.forEach((e, c) -> {
            FieldSet rest = c.minus(other == null ? null : other.children.get(e));
            if (!rest.isEmpty()) {
                result.children.put(e, rest);
            }
        });
        return result;
    }

    FieldSet intersect(FieldSet other) {
        FieldSet result = new FieldSet();
        if (other == null) {
            return result;
        }
        result.member = member && other.member;
        children.forEach((e, c) -> {
            FieldSet common = c.intersect(other.children.get(e));
            if (!common.isEmpty()) {
                result.children.put(e, common);
            }
        });
        return result;
    }

    /** The member paths in the real server's order (members of a node before its subtrees), e.g. {@code .data.a}. */
    List<String> paths() {
        List<String> paths = new ArrayList<>();
        walk("", (path, node) -> paths.add(path));
        return paths;
    }

    private void walk(String prefix, BiConsumer<String, FieldSet> visitor) {
        children.forEach((e, c) -> {
            if (c.member) {
                visitor.accept(prefix + display(e), c);
            }
        });
        children.forEach((e, c) -> {
            if (!c.children.isEmpty()) {
                c.walk(prefix + display(e), visitor);
            }
        });
    }

    private void addAll(FieldSet other) {
        member |= other.member;
        other.children.forEach((e, c) -> child(e).addAll(c));
    }

    /** A path element as the real server prints it in a conflict: {@code .name}, {@code [name="c"]}, {@code [="x"]}. */
    private static String display(String element) {
        String rest = element.substring(2);
        return switch (element.charAt(0)) {
            case 'f' -> "." + rest;
            case 'v' -> "[=" + rest + "]";
            case 'k' -> {
                List<String> parts = new ArrayList<>();
                Json.parseObject(rest).entrySet().forEach(k -> parts.add(k.getKey() + "=" + k.getValue()));
                yield "[" + String.join(",", parts) + "]";
            }
            default -> "[" + rest + "]";
        };
    }
}
