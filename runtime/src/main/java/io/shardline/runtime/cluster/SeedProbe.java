package io.shardline.runtime.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Before a worker starts its Hazelcast member: which seed of {@code cluster.members}, if any, accepts a TCP
 * connection, i.e. whether there is a member to join. What it finds decides how the member joins ({@link JoinPlan}):
 * a listening seed gets five seconds to answer, so that a member on a loaded machine has time to answer the join
 * instead of the new worker forming a cluster beside the running one until the split-brain merge; with nobody
 * listening a first worker starts fast (docs/operations.md, "Start time").
 *
 * <p>Every seed is tried at once, each for at most {@code timeoutMs}; this worker's own address never listens yet
 * (its member is not started), so it needs no exclusion. Stateless; blocks the calling thread (the worker's start).
 */
public final class SeedProbe {

    private SeedProbe() {
    }

    /** The first seed found accepting connections within {@code timeoutMs}, if any. */
    public static Optional<String> listening(List<String> seeds, int timeoutMs) {
        if (seeds.isEmpty()) {
            return Optional.empty();
        }
        ExecutorService pool = Executors.newFixedThreadPool(seeds.size(), r -> {
            Thread t = new Thread(r, "shardline-seed-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<?>[] probes = seeds.stream().map(seed -> CompletableFuture.runAsync(() -> {
                if (accepts(seed, timeoutMs)) {
                    first.complete(seed);
                }
            }, pool)).toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(probes).whenComplete((v, e) -> first.complete(null));
            return Optional.ofNullable(first.get(timeoutMs + 1_000L, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean accepts(String seed, int timeoutMs) {
        int colon = seed.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        String host = seed.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(seed.substring(colon + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
