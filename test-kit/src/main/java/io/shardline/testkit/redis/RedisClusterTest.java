package io.shardline.testkit.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real Redis Cluster ({@link RedisCluster}) of {@link #primaries()}
 * primaries on free loopback ports, formed before the class and stopped (every node by its pid) after it.
 * Test methods, constructors and lifecycle methods receive the {@link RedisCluster} as a parameter. The class
 * is skipped, with the reason, only when no {@code redis-server} binary is installed ({@code bin/test}
 * installs it, so CI always runs it).
 *
 * <pre>{@code
 * @RedisClusterTest
 * class ClusterTest {
 *     @Test
 *     void routes(RedisCluster cluster) { ... cluster.seedUris() ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisClusterExtension.class)
public @interface RedisClusterTest {

    /** The number of primaries (each takes an equal range of the slots). */
    int primaries() default 3;

    /** True to give every primary one replica, which takes over when its primary is killed. */
    boolean replicas() default false;
}
