package io.shardline.runtime.control;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * This worker's log levels (Connect KIP-495's {@code /admin/loggers}), over logback, the runtime's SLF4J backend:
 * {@link #levels} lists every logger with a level of its own (and {@code ROOT}), {@link #set} changes one until the
 * worker restarts (the logging configuration file is not rewritten). Thread-safe (logback's levels are).
 */
public final class LoggerLevels {

    /** The levels accepted, as logback names them. */
    public static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    private LoggerLevels() {
    }

    /** Logger name to its level, for every logger with a level set (the root as {@code ROOT}), sorted. */
    public static Map<String, String> levels() {
        Map<String, String> out = new TreeMap<>();
        for (Logger logger : context().getLoggerList()) {
            if (logger.getLevel() != null) {
                out.put(logger.getName(), logger.getLevel().toString());
            }
        }
        return out;
    }

    /**
     * Sets {@code name}'s level ({@code ROOT} for the root logger).
     *
     * @throws ControlPlaneException 400 naming the level when it is not one of {@link #LEVELS}
     */
    public static void set(String name, String level) {
        String upper = checkLevel(level);
        Logger logger = context().getLogger(name.equalsIgnoreCase(Logger.ROOT_LOGGER_NAME) ? Logger.ROOT_LOGGER_NAME
                : name);
        logger.setLevel(Level.toLevel(upper));
    }

    /** The level in upper case; 400 when it is not one of {@link #LEVELS}. */
    public static String checkLevel(String level) {
        String upper = level == null ? "" : level.trim().toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(upper)) {
            throw ControlPlaneException.badRequest("level: '" + level + "' is not a log level; use one of "
                    + String.join(", ", new java.util.TreeSet<>(LEVELS)));
        }
        return upper;
    }

    private static LoggerContext context() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            return context;
        }
        throw new ControlPlaneException(501, "log levels can be changed only with logback as the SLF4J backend "
                + "(found " + factory.getClass().getName() + ")");
    }
}
