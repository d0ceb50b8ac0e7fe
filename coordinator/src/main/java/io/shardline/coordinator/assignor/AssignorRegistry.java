package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Finds assignors: the built-ins by name, custom ones by {@link Assignor#name()} or fully qualified class name
 * among those {@link ServiceLoader} discovers on a given class loader. No other class is ever loaded: a class
 * name that no {@code META-INF/services} file lists is unknown, whatever it names.
 *
 * <p>The built-ins are listed by class name in {@link #BUILT_IN_CLASSES} and loaded reflectively; a listed
 * class that is not on the class path is skipped, so the list may name assignors that are built separately.
 * Built-in instances are created once and shared (assignors are stateless and thread-safe). Thread-safe.
 */
public final class AssignorRegistry {

    /** The built-in assignors' classes, in the order their names are listed. */
    static final List<String> BUILT_IN_CLASSES = List.of(
            "io.shardline.coordinator.assignor.RangeAssignor",
            "io.shardline.coordinator.assignor.RoundRobinAssignor",
            "io.shardline.coordinator.assignor.StickyAssignor",
            "io.shardline.coordinator.assignor.CooperativeStickyAssignor");

    private static final Map<String, Assignor> BUILT_INS = loadBuiltIns();

    private AssignorRegistry() {
    }

    /** The names of the built-in assignors, e.g. {@code [range, round-robin, sticky, cooperative-sticky]}. */
    public static Set<String> builtInNames() {
        return Collections.unmodifiableSet(BUILT_INS.keySet());
    }

    /**
     * The built-in assignor called {@code name}.
     *
     * @throws IllegalArgumentException naming {@code name} and the known names when there is none
     */
    public static Assignor builtIn(String name) {
        Objects.requireNonNull(name, "name");
        Assignor assignor = BUILT_INS.get(name);
        if (assignor == null) {
            throw new IllegalArgumentException("unknown assignor '" + name + "': the built-in assignors are "
                    + String.join(", ", BUILT_INS.keySet()));
        }
        return assignor;
    }

    /**
     * The assignor called {@code nameOrClass}: a built-in by name; else an assignor registered in
     * {@code META-INF/services/io.shardline.api.assignor.Assignor} visible to {@code loader}, matched by its
     * {@link Assignor#name()} or its class name. Nothing else is loaded.
     *
     * @throws IllegalArgumentException naming {@code nameOrClass} and the known names when none is found
     */
    public static Assignor find(String nameOrClass, ClassLoader loader) {
        Objects.requireNonNull(nameOrClass, "nameOrClass");
        Objects.requireNonNull(loader, "loader");
        Assignor builtIn = BUILT_INS.get(nameOrClass);
        if (builtIn != null) {
            return builtIn;
        }
        List<String> serviceNames = new ArrayList<>();
        List<String> brokenProviders = new ArrayList<>();
        Iterator<Assignor> providers = ServiceLoader.load(Assignor.class, loader).iterator();
        while (true) {
            Assignor candidate;
            try {
                if (!providers.hasNext()) {
                    break;
                }
                candidate = providers.next();
            } catch (ServiceConfigurationError e) {
                brokenProviders.add(e.getMessage());
                continue;
            }
            if (nameOrClass.equals(candidate.name()) || nameOrClass.equals(candidate.getClass().getName())) {
                return candidate;
            }
            serviceNames.add(candidate.name());
        }
        throw unknown(nameOrClass, serviceNames, brokenProviders);
    }

    private static Assignor instantiate(String nameOrClass, Class<?> type) {
        if (!Assignor.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("assignor class '" + nameOrClass + "' does not implement "
                    + Assignor.class.getName());
        }
        try {
            return (Assignor) type.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("assignor class '" + nameOrClass
                    + "' has no public no-argument constructor", e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("assignor class '" + nameOrClass + "' failed in its constructor: "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException("assignor class '" + nameOrClass + "' cannot be created: " + e, e);
        }
    }

    private static IllegalArgumentException unknown(String nameOrClass, List<String> serviceNames,
                                                    List<String> brokenProviders) {
        StringBuilder sb = new StringBuilder("unknown assignor '").append(nameOrClass)
                .append("': the built-in assignors are ").append(String.join(", ", BUILT_INS.keySet()));
        if (!serviceNames.isEmpty()) {
            sb.append("; plugin assignors found: ").append(String.join(", ", serviceNames));
        }
        sb.append("; a custom assignor must be listed in META-INF/services/").append(Assignor.class.getName())
                .append(" of a jar on the plugin path, and is selected by its name() or its class name");
        if (!brokenProviders.isEmpty()) {
            sb.append("; plugin assignors that failed to load: ").append(String.join("; ", brokenProviders));
        }
        return new IllegalArgumentException(sb.toString());
    }

    private static Map<String, Assignor> loadBuiltIns() {
        Map<String, Assignor> result = new LinkedHashMap<>();
        ClassLoader loader = AssignorRegistry.class.getClassLoader();
        for (String className : BUILT_IN_CLASSES) {
            Class<?> type;
            try {
                type = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                continue; // not built into this distribution
            }
            Assignor assignor = instantiate(className, type);
            result.put(assignor.name(), assignor);
        }
        return Collections.unmodifiableMap(result);
    }
}
