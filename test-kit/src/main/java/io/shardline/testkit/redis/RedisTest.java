package io.shardline.testkit.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real {@code redis-server} started on a free loopback port for
 * the class and stopped after it. Test methods, constructors and lifecycle methods receive the
 * {@link RedisServer} as a parameter.
 *
 * <pre>{@code
 * @RedisTest
 * class StreamTest {
 *     @Test
 *     void reads(RedisServer redis) { ... redis.uri() ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisServerExtension.class)
public @interface RedisTest {

    /** True to start the server with the append-only file on (a test that kills and restarts Redis). */
    boolean aof() default false;
}
