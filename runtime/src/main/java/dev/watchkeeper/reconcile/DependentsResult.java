package dev.watchkeeper.reconcile;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link ReconcileContext#reconcileDependents} did with each dependent, in the order it reconciled them.
 *
 * @param dependents one entry per declared dependent
 * @param external   the state of each {@link Dependent#external external} dependent's resource after the run, by
 *                   the dependent's name; absent while it does not exist
 */
public record DependentsResult(List<DependentState> dependents, Map<String, Object> external) {

    public DependentsResult {
        dependents = List.copyOf(dependents);
        external = Map.copyOf(external);
    }

    /** Where one dependent stands after the run. */
    public enum Phase {
        /** Its objects are as desired and ready. */
        READY,
        /** Its objects are as desired, but not all ready yet: the dependents after it wait. */
        NOT_READY,
        /** Not applied: a dependent it depends on is not ready, failed or blocked itself. */
        BLOCKED,
        /**
         * Not wanted for this primary ({@code activeWhen}), its objects deleted; or of a type owned when served that
         * the server does not serve yet.
         */
        INACTIVE,
        /** Applying or deleting one of its objects failed; the reconcile fails with that error once the rest ran. */
        FAILED
    }

    /**
     * One dependent's outcome.
     *
     * @param name     the dependent's name
     * @param phase    where it stands
     * @param applied  objects applied this time (0 when each cached copy already held every desired field)
     * @param unchanged objects skipped because their cached copy already held every desired field
     * @param deleted  objects deleted as no longer desired
     * @param reason   why it is not ready, blocked or failed; {@code null} when ready or inactive
     */
    public record DependentState(String name, Phase phase, int applied, int unchanged, int deleted, String reason) {
    }

    /** Whether every active dependent is ready. */
    public boolean allReady() {
        return dependents.stream().allMatch(state -> state.phase() == Phase.READY || state.phase() == Phase.INACTIVE);
    }

    /** The first dependent, in order, that is not ready, blocked or failed: the one that holds the primary up. */
    public Optional<DependentState> holdingUp() {
        return dependents.stream().filter(state -> state.phase() != Phase.READY && state.phase() != Phase.INACTIVE)
                .findFirst();
    }

    /** The state of the dependent named {@code name}. */
    public Optional<DependentState> state(String name) {
        return dependents.stream().filter(state -> state.name().equals(name)).findFirst();
    }

    /** The state of the external dependent named {@code name}'s resource, empty while it does not exist. */
    public <R> Optional<R> external(String name, Class<R> type) {
        return Optional.ofNullable(external.get(name)).map(type::cast);
    }
}
