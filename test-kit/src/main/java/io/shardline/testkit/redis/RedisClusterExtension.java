package io.shardline.testkit.redis;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit 5 extension behind {@link RedisClusterTest}: one {@link RedisCluster} per test class, formed before all
 * tests and stopped (every node by its pid) after them. A {@code @Nested} class shares its enclosing class's
 * cluster. Without a {@code redis-server} binary the class is skipped (aborted) with the installation hint.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisClusterExtension.class);
    private static final String KEY = "cluster";

    @Override
    public void beforeAll(ExtensionContext context) {
        if (find(context) != null) {
            return; // nested class: the enclosing class's cluster serves it
        }
        Assumptions.assumeTrue(RedisServer.findBinary().isPresent(), () -> new RedisUnavailableException().getMessage());
        RedisClusterTest settings = AnnotationSupport.findAnnotation(context.getRequiredTestClass(),
                RedisClusterTest.class).orElseThrow(() -> new IllegalStateException(
                        "@RedisClusterTest missing on " + context.getRequiredTestClass()));
        context.getStore(NAMESPACE).put(KEY, RedisCluster.start(settings.primaries(), settings.replicas()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        RedisCluster cluster = context.getStore(NAMESPACE).remove(KEY, RedisCluster.class);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == RedisCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        RedisCluster cluster = find(extensionContext);
        if (cluster == null) {
            throw new IllegalStateException("no Redis Cluster for " + extensionContext.getDisplayName());
        }
        return cluster;
    }

    private static RedisCluster find(ExtensionContext context) {
        return context.getStore(NAMESPACE).get(KEY, RedisCluster.class);
    }
}
