package dev.watchkeeper.internal.shard;

import dev.watchkeeper.internal.leader.LeaseLock;
import dev.watchkeeper.internal.leader.LeaseRecord;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The other members of a group as this replica sees them, from the last list of the group's member Leases (label
 * {@value ShardCoordinator#GROUP_LABEL}). Another member is live while its Lease (record and adopted epoch) was last
 * <em>seen to change</em> less than its {@code leaseDurationSeconds} ago by this replica's clock (client-go's
 * {@code observedTime}; no other machine's clock is read); a released Lease (no holder) is not a member. A live
 * member's claimed slots are the ones no other replica may activate.
 *
 * <p>Touched by the coordinator's thread only.
 */
final class Membership {

    /**
     * What this replica last saw of another member's Lease (record, adopted epoch, claimed slots), and when, by its
     * own clock, it last saw it change.
     */
    private record Seen(LeaseLock.Observed lease, LeaseRecord record, String adoptedEpoch, Slots claimed,
            Instant observedTime) {

        boolean live(Instant now) {
            return record.isHeld() && observedTime.plusSeconds(record.leaseDurationSeconds()).isAfter(now);
        }
    }

    // sharding's log lines share the coordinator's category
    private static final Logger log = LoggerFactory.getLogger(ShardCoordinator.class);

    private final ApiClient apiClient;
    private final ShardingSettings settings;
    private final Map<String, Seen> seen = new HashMap<>();
    /** Leases whose claim could not be read, each reported once. */
    private final Set<String> unreadable = new HashSet<>();
    /** Leases left behind that could not be deleted, each reported once. */
    private final Set<String> undeletable = new HashSet<>();

    Membership(ApiClient apiClient, ShardingSettings settings) {
        this.apiClient = apiClient;
        this.settings = settings;
    }

    /** Lists the group's Leases (the call ends within {@code limit}) and notes which changed since last seen. */
    void read(Instant now, Duration limit) throws ApiException {
        List<LeaseLock.Observed> leases = LeaseLock.list(apiClient, settings.namespace(),
                ShardCoordinator.GROUP_LABEL + "=" + settings.group(), limit);
        Set<String> names = new HashSet<>();
        for (LeaseLock.Observed lease : leases) {
            String name = lease.lease().getMetadata().getName();
            if (name.equals(settings.memberLeaseName())) {
                continue;
            }
            names.add(name);
            Seen before = seen.get(name);
            String epoch = lease.annotation(ShardCoordinator.ADOPTED_EPOCH);
            Slots claimed = claimed(name, lease.annotation(ShardCoordinator.CLAIMED_SLOTS));
            if (before == null || !before.record().equals(lease.record())
                    || !Objects.equals(before.adoptedEpoch(), epoch) || !before.claimed().equals(claimed)) {
                // it changed: its holder is alive, by our clock
                seen.put(name, new Seen(lease, lease.record(), epoch, claimed, now));
            }
        }
        seen.keySet().retainAll(names);
    }

    /**
     * The slots a member's Lease claims: none without the annotation (it adopted nothing yet, so it has none active);
     * every slot when the annotation is not slots, since only a claim read right may let another member take one.
     */
    private Slots claimed(String lease, String annotation) {
        if (annotation == null) {
            return Slots.none();
        }
        try {
            return Slots.fromHex(annotation);
        } catch (IllegalArgumentException e) {
            if (!unreadable.contains(lease)) {
                unreadable.add(lease);
                log.warn("sharding: the member Lease {} claims slots as '{}', which are not slots; counting it as"
                        + " claiming every slot until it writes its claim again", lease, annotation);
            }
            return Slots.all();
        }
    }

    /**
     * Deletes the Leases of members that left: released ones, and expired ones (unchanged for their lease duration by
     * our clock), each only if still the version we saw. Identities change with every rollout; without this a Lease
     * per replica ever run would pile up. A member that comes back creates its Lease anew, claiming nothing.
     */
    void deleteLeftBehind(Instant now, Duration limit) {
        for (Iterator<Map.Entry<String, Seen>> entries = seen.entrySet().iterator(); entries.hasNext(); ) {
            Map.Entry<String, Seen> entry = entries.next();
            Seen member = entry.getValue();
            if (member.live(now)) {
                continue;
            }
            try {
                LeaseLock.delete(apiClient, member.lease(), limit);
                entries.remove();
                log.info("sharding: deleted the member Lease {} of {}, which {}", entry.getKey(),
                        member.record().holder(), member.record().isHeld() ? "expired" : "was released");
            } catch (ApiException e) {
                if (e.getCode() == 404 || e.getCode() == 409) {
                    entries.remove(); // gone or renewed since: the next read sees which
                } else if (undeletable.add(entry.getKey())) {
                    log.warn("sharding: cannot delete the member Lease {}, which {}: {}; it stays (harmless, not a "
                            + "member) until a replica may delete leases", entry.getKey(),
                            member.record().isHeld() ? "expired" : "was released", LeaseLock.describe(e));
                }
            }
        }
    }

    /** The identities of the live members, this replica's own among them. */
    Set<String> liveIdentities(Instant now) {
        Set<String> live = new HashSet<>();
        live.add(settings.identity());
        seen.values().stream().filter(member -> member.live(now)).forEach(member -> live.add(member.record().holder()));
        return live;
    }

    /** The soonest time at which a member live at {@code now} expires, if any does. */
    Optional<Instant> nextExpiry(Instant now) {
        return seen.values().stream().filter(member -> member.live(now))
                .map(member -> member.observedTime().plusSeconds(member.record().leaseDurationSeconds()))
                .min(Instant::compareTo);
    }

    /** The slots the other live members' Leases claim. */
    Slots claimedByOthers(Instant now) {
        return seen.values().stream().filter(member -> member.live(now)).map(Seen::claimed)
                .reduce(Slots.none(), Slots::union);
    }

    /** The other members (held Leases), live or not, for a snapshot; unordered. */
    List<ShardingSnapshot.Member> others(Instant now) {
        return seen.values().stream().filter(member -> member.record().isHeld())
                .map(member -> new ShardingSnapshot.Member(member.record().holder(), member.adoptedEpoch(),
                        member.live(now)))
                .toList();
    }
}
