package dev.watchkeeper.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys are equal, and hash alike, exactly when their namespaces (none and empty being one) and names are. */
class ObjectKeyTest {

    @Test
    void equalExactlyWhenNamespaceAndNameAre() {
        List<ObjectKey> keys = List.of(new ObjectKey("a", "x"), new ObjectKey("a", "y"), new ObjectKey("b", "x"),
                new ObjectKey(null, "x"), new ObjectKey(null, "y"));
        for (ObjectKey one : keys) {
            for (ObjectKey other : keys) {
                assertThat(one.equals(other)).as("%s equals %s", one, other).isEqualTo(one == other);
            }
            ObjectKey same = new ObjectKey(one.namespace(), one.name());
            assertThat(same).isEqualTo(one).hasSameHashCodeAs(one);
        }
        assertThat(new ObjectKey("", "x")).isEqualTo(new ObjectKey(null, "x"))
                .hasSameHashCodeAs(new ObjectKey(null, "x"));
        assertThat(new ObjectKey("a", "x")).isNotEqualTo("a/x").isNotEqualTo(null);
    }
}
