package io.shardline.runtime.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's place in the cluster: an embedded Hazelcast member and a clustered Vert.x on top of it
 * (event bus on the same host as Hazelcast), plus the {@link LeaderView} recomputed on every
 * membership event from the member list as it is when the event is handled (Hazelcast hands membership
 * events to several event threads, so an older event can be handled after a newer one: its own member
 * list would take the view back to a cluster that no longer exists, naming a departed worker as leader).
 * Listeners registered with {@link #onViewChange} are called on a Hazelcast event thread and must hand
 * work to their own Vert.x context.
 *
 * <p>{@link #start} blocks (Hazelcast's start is blocking): call it from a plain thread, never an
 * event loop. Thread-safe after start.
 */
public final class WorkerCluster {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerCluster.class);
    /** How long a seed may take to accept a TCP connection before the start counts it as absent ({@link SeedProbe}). */
    private static final int SEED_PROBE_TIMEOUT_MS = 500;

    private final HazelcastInstance hazelcast;
    private final Vertx vertx;
    private final ClusterSettings settings;
    private final List<Consumer<LeaderView>> listeners = new CopyOnWriteArrayList<>();
    private final String startPhases;
    private volatile LeaderView view;

    private WorkerCluster(HazelcastInstance hazelcast, Vertx vertx, ClusterSettings settings, String startPhases) {
        this.hazelcast = hazelcast;
        this.vertx = vertx;
        this.settings = settings;
        this.startPhases = startPhases;
    }

    /**
     * Joins (or forms) the cluster and starts clustered Vert.x.
     *
     * @param timeoutMs bound for the clustered Vert.x start
     * @throws ClusterStartException when Hazelcast or Vert.x cannot start, or the worker id is taken
     */
    public static WorkerCluster start(ClusterSettings settings, long timeoutMs) {
        long started = System.nanoTime();
        Optional<String> seed = SeedProbe.listening(settings.members(), SEED_PROBE_TIMEOUT_MS);
        JoinPlan join = JoinPlan.decide(settings, seed);
        HazelcastInstance hazelcast;
        try {
            hazelcast = Hazelcast.newHazelcastInstance(HazelcastConfigs.forWorker(settings, join));
        } catch (RuntimeException e) {
            throw new ClusterStartException("cannot start the Hazelcast member on " + settings.memberAddress() + ": "
                    + e.getMessage(), e);
        }
        try {
            long hazelcastMs = (System.nanoTime() - started) / 1_000_000;
            LOG.info("Hazelcast member started in {} ms: {} member(s) ({}; join timeout {} s)", hazelcastMs,
                    hazelcast.getCluster().getMembers().size(),
                    join.reason(), join.timeoutSeconds());
            throwIfWorkerIdTaken(hazelcast, settings.workerId());
            long vertxStarted = System.nanoTime();
            LOG.info("Cluster ports: {}", settings.security().describe());
            settings.security().exposureWarning(settings.host(), settings.port()).ifPresent(LOG::warn);
            EventBusOptions bus = new EventBusOptions().setHost(settings.host()).setPort(settings.ports().busPort())
                    .setClusterPublicHost(settings.host());
            if (settings.ports().busPublicPort() != 0) {
                bus.setClusterPublicPort(settings.ports().busPublicPort());
            }
            VertxOptions options = new VertxOptions().setEventBusOptions(settings.security().applyTo(bus));
            Vertx vertx = Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(hazelcast))
                    .buildClustered()
                    .toCompletionStage().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
            long vertxMs = (System.nanoTime() - vertxStarted) / 1_000_000;
            WorkerCluster cluster = new WorkerCluster(hazelcast, vertx, settings,
                    "hazelcast " + hazelcastMs + ", clustered vert.x " + vertxMs);
            cluster.watchMembership();
            return cluster;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            hazelcast.shutdown();
            throw new ClusterStartException("interrupted while starting clustered Vert.x", e);
        } catch (ClusterStartException e) {
            hazelcast.shutdown();
            throw e;
        } catch (Exception e) {
            hazelcast.shutdown();
            throw new ClusterStartException("cannot start clustered Vert.x: " + e, e);
        }
    }

    /** The clustered Vert.x. */
    public Vertx vertx() {
        return vertx;
    }

    /** How long the start took, by phase, for the worker's start-up log line ({@code "hazelcast 900, clustered vert.x 400"}). */
    public String startPhases() {
        return startPhases;
    }

    /** The current view (never null after start). */
    public LeaderView view() {
        return view;
    }

    /** Calls {@code listener} with every new view (and once now with the current one). */
    public synchronized void onViewChange(Consumer<LeaderView> listener) {
        listeners.add(listener);
        listener.accept(view);
    }

    /** The settings this worker joined with. */
    public ClusterSettings settings() {
        return settings;
    }

    /** Leaves the cluster: closes Vert.x (unregistering its event-bus consumers), then stops Hazelcast. */
    public void stop(long timeoutMs) {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("Vert.x did not close cleanly: {}", e.toString());
        }
        if (hazelcast.getLifecycleService().isRunning()) {
            hazelcast.shutdown();
        }
    }

    private void watchMembership() {
        synchronized (this) {
            view = toView(hazelcast.getCluster().getMembers());
        }
        hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                update();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                update();
            }
        });
        // A change between the first read and the listener registration would otherwise be missed.
        update();
        LOG.info("Cluster view: {}", view);
    }

    /**
     * Recomputes the view from the current member list (never from an event's, which may be older) and tells the
     * listeners under the same lock, so that two event threads cannot hand them two views in the wrong order.
     */
    private synchronized void update() {
        LeaderView next = toView(hazelcast.getCluster().getMembers());
        if (next.members().equals(view.members())) {
            return;
        }
        LOG.info("Cluster membership changed: {} -> {}", view, next);
        view = next;
        listeners.forEach(l -> l.accept(next));
    }

    private LeaderView toView(Collection<Member> members) {
        List<ClusterMember> list = new ArrayList<>();
        for (Member m : members) {
            list.add(toMember(m));
        }
        return new LeaderView(list, toMember(hazelcast.getCluster().getLocalMember()));
    }

    private static ClusterMember toMember(Member m) {
        Map<String, String> attributes = new HashMap<>(m.getAttributes());
        String workerId = attributes.getOrDefault(HazelcastConfigs.WORKER_ID_ATTRIBUTE, m.getUuid().toString());
        return new ClusterMember(m.getUuid().toString(), workerId,
                m.getAddress().getHost() + ":" + m.getAddress().getPort(), attributes);
    }

    private static void throwIfWorkerIdTaken(HazelcastInstance hazelcast, String workerId) {
        Member local = hazelcast.getCluster().getLocalMember();
        for (Member m : hazelcast.getCluster().getMembers()) {
            if (!m.equals(local) && workerId.equals(m.getAttribute(HazelcastConfigs.WORKER_ID_ATTRIBUTE))) {
                throw new ClusterStartException("worker.id '" + workerId + "' is already used by the cluster member at "
                        + m.getAddress() + "; give every worker its own worker.id", null);
            }
        }
    }
}
