package io.shardline.testkit.redis;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit 5 extension behind {@link RedisTest}: one {@link RedisServer} per test class, started before all
 * tests and stopped (by pid) after them. A {@code @Nested} class shares its enclosing class's server.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisServerExtension.class);
    private static final String KEY = "server";

    @Override
    public void beforeAll(ExtensionContext context) {
        if (find(context) != null) {
            return; // nested class: the enclosing class's server serves it
        }
        boolean aof = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), RedisTest.class)
                .map(RedisTest::aof)
                .orElse(false);
        context.getStore(NAMESPACE).put(KEY, RedisServer.start(aof));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        RedisServer server = context.getStore(NAMESPACE).remove(KEY, RedisServer.class);
        if (server != null) {
            server.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == RedisServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        RedisServer server = find(extensionContext);
        if (server == null) {
            throw new IllegalStateException("no redis-server for " + extensionContext.getDisplayName());
        }
        return server;
    }

    private static RedisServer find(ExtensionContext context) {
        return context.getStore(NAMESPACE).get(KEY, RedisServer.class);
    }
}
