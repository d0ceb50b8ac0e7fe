package io.shardline.runtime.redis;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The worker's Redis user may not run commands the worker needs ({@link RedisPermissionCheck}): the message
 * names each refused command and the key it was tried on, and the command that prints the ACL to grant.
 */
public final class RedisPermissionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The refused commands. */
    private final transient List<RedisPermissionCheck.Denial> denials;

    /**
     * Creates the exception.
     *
     * @param user the ACL user ({@code redis.user}), or null for the default user
     */
    public RedisPermissionException(String user, List<RedisPermissionCheck.Denial> denials, RedisAcl acl) {
        super(message(user, denials, acl));
        this.denials = List.copyOf(denials);
    }

    /** The refused commands, sorted by command. */
    public List<RedisPermissionCheck.Denial> denials() {
        return denials;
    }

    private static String message(String user, List<RedisPermissionCheck.Denial> denials, RedisAcl acl) {
        StringBuilder hint = new StringBuilder("bin/shardline redis-acl --cluster ").append(acl.clusterName());
        acl.streams().forEach(s -> hint.append(" --stream ").append(s));
        acl.deadLetterKeys().forEach(k -> hint.append(" --dead-letter ").append(k));
        if (acl.xackdel()) {
            hint.append(" --xackdel");
        }
        return "Redis user '" + (user == null ? "default" : user) + "' (redis.user) lacks permissions the worker needs: "
                + denials.stream().map(RedisPermissionCheck.Denial::describe).collect(Collectors.joining(", "))
                + " (Redis answered: " + denials.get(0).reply() + "). Grant the ACL that " + hint
                + " prints, naming every stream and dead-letter key of the workers' listeners: its key patterns "
                + "replace the user's (docs/security.md, \"Redis\").";
    }
}
