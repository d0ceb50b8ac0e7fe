package io.shardline.runtime.plugin;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.coordinator.assignor.AssignorRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The assignors a worker (or {@code bin/assign}) may run: the built-ins by name, and the assignor plugins the
 * {@link PluginScanner} discovered (listed in {@code META-INF/services/io.shardline.api.assignor.Assignor} of a
 * jar or folder on {@code plugin.path}, or of the worker's class path) by their {@link Assignor#name()} or class
 * name. No other class is ever loaded: a name that matches none of these is unknown (docs/security.md, "REST API"). Immutable.
 */
public final class AssignorPlugins {

    private final Plugins plugins;

    /** The assignors of {@code plugins} and the built-ins. */
    public AssignorPlugins(Plugins plugins) {
        this.plugins = Objects.requireNonNull(plugins, "plugins");
    }

    /** The discovered assignor plugins (not the built-ins). */
    public List<PluginDesc> plugins() {
        return plugins.plugins().stream().filter(p -> p.type().equals(Assignor.class.getName())).toList();
    }

    /** True when {@code nameOrClass} is a built-in's name. */
    public static boolean isBuiltIn(String nameOrClass) {
        return AssignorRegistry.builtInNames().contains(nameOrClass);
    }

    /**
     * The plugin {@code nameOrClass} selects: its class name exactly, else its {@code name()} (ignoring case);
     * empty for built-ins and unknown names.
     */
    public Optional<PluginDesc> find(String nameOrClass) {
        if (isBuiltIn(nameOrClass)) {
            return Optional.empty();
        }
        return plugins.find(Assignor.class, nameOrClass);
    }

    /** Why {@code nameOrClass} cannot be used on this worker, or empty when it can. */
    public Optional<String> problem(String nameOrClass) {
        if (isBuiltIn(nameOrClass) || find(nameOrClass).isPresent()) {
            return Optional.empty();
        }
        String installed = plugins().stream().map(p -> p.alias() + " (" + p.className() + ")")
                .collect(Collectors.joining(", "));
        String failed = plugins.errors().stream()
                .filter(e -> e.className().equals(nameOrClass) || e.className().endsWith("." + nameOrClass))
                .map(PluginError::toString).collect(Collectors.joining("; "));
        return Optional.of("unknown assignor '" + nameOrClass + "': the built-in assignors are "
                + String.join(", ", AssignorRegistry.builtInNames()) + "; assignor plugins installed here: "
                + (installed.isEmpty() ? "none" : installed)
                + (failed.isEmpty() ? "" : "; it failed to load: " + failed)
                + ". An assignor plugin is a jar that lists it in META-INF/services/" + Assignor.class.getName()
                + ", on plugin.path of every worker");
    }

    /**
     * The assignor {@code nameOrClass} selects: a built-in as is, a plugin as a new instance that runs under its
     * own class loader ({@link Isolated}).
     *
     * @throws PluginException with {@link #problem} when there is none, or when the plugin cannot be created
     */
    public Assignor resolve(String nameOrClass) {
        if (isBuiltIn(nameOrClass)) {
            return AssignorRegistry.builtIn(nameOrClass);
        }
        PluginDesc desc = find(nameOrClass).orElseThrow(() -> new PluginException(problem(nameOrClass).orElseThrow()));
        return new Isolated(desc, Plugins.newInstance(desc, Assignor.class));
    }

    /** A plugin assignor whose every call runs with its plugin's class loader as the context loader. */
    static final class Isolated implements Assignor {

        private final PluginDesc desc;
        private final Assignor assignor;

        Isolated(PluginDesc desc, Assignor assignor) {
            this.desc = desc;
            this.assignor = assignor;
        }

        @Override
        public String name() {
            return desc.alias();
        }

        @Override
        public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
            try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
                return assignor.assign(group, shards);
            }
        }

        @Override
        public String toString() {
            return desc.className() + "@" + desc.location();
        }
    }
}
