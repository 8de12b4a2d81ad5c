package dev.watchkeeper.internal.shard;

import dev.watchkeeper.internal.shard.ShardingSnapshot.Phase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Builds a coordinator's {@link ShardingSnapshot} from its member Lease, membership view and hand-over. */
final class ShardingSnapshots {

    private ShardingSnapshots() {
    }

    static ShardingSnapshot of(ShardingSettings settings, MemberLease lease, Membership membership, HandOver handOver,
            Instant now) {
        List<ShardingSnapshot.Member> members = new ArrayList<>();
        members.add(new ShardingSnapshot.Member(settings.identity(), lease.writtenAdoption(), lease.live()));
        members.addAll(membership.others(now));
        members.sort(Comparator.comparing(ShardingSnapshot.Member::identity));
        Phase phase = lease.lost() ? Phase.LOST
                : !lease.joined() ? Phase.JOINING
                : handOver.since() != null ? Phase.HANDING_OVER : Phase.SETTLED;
        return new ShardingSnapshot(settings.identity(), settings.group(), handOver.epoch(), members,
                handOver.assigned().toString(), handOver.assigned().fraction(), handOver.active().toString(),
                handOver.active().fraction(), phase, handOver.since(), handOver.count(), handOver.last());
    }
}
